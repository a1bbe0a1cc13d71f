;; The first pass of a dense search (docs/adr/0042-bulk-import-and-warm-indexes.md, "Amended"): the dot
;; product of an int8 query with every int8 row, in SIMD (WebAssembly 128-bit, in Node since 16).
;; int8-dots.wasm is this file compiled by wabt's wat2wasm (`npx -p wabt@1.0.39 wat2wasm int8-dots.wat`);
;; denseRows.test.ts checks its answers against exact scans.
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = Σ_d rows[r · width + d] · query[d] for r < n, as int32; `width` is a multiple of 16.
  (func (export "dots") (param $rows i32) (param $query i32) (param $n i32) (param $width i32) (param $out i32)
    (local $end i32) (local $d i32) (local $sum v128) (local $a v128) (local $b v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum (v128.const i32x4 0 0 0 0))
        (local.set $d (i32.const 0))
        (loop $dim
          (local.set $a (v128.load (i32.add (local.get $rows) (local.get $d))))
          (local.set $b (v128.load (i32.add (local.get $query) (local.get $d))))
          ;; Sixteen int8 products at a time: widened to int16, multiplied and added pairwise into int32.
          (local.set $sum (i32x4.add (local.get $sum)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
          (local.set $sum (i32x4.add (local.get $sum)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
          (local.set $d (i32.add (local.get $d) (i32.const 16)))
          (br_if $dim (i32.lt_u (local.get $d) (local.get $width))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $rows (i32.add (local.get $rows) (local.get $width)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
