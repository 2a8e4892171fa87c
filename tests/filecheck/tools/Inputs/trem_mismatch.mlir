func.func @main(%a: !pto.tile<8x16xsi32>, %b: !pto.tile<8x16xf32>) -> !pto.tile<8x16xsi32> {
  %0 = pto.trem %a, %b : (!pto.tile<8x16xsi32>, !pto.tile<8x16xf32>) -> !pto.tile<8x16xsi32>
  func.return %0 : !pto.tile<8x16xsi32>
}
func.func @helper(%a: !pto.tile<8x16xsi32>) -> !pto.tile<8x16xsi32> {
  func.return %a : !pto.tile<8x16xsi32>
}
