;; The first pass of a dense search (docs/adr/0042-bulk-import-and-warm-indexes.md, "Amended (3)"): each
;; row is one bit per dimension (the sign of its entry), the query four bit planes of its entries quantized
;; to 0–15; a row's sum of the query's quantized entries where its bit is set is Σ_k 2^k · popcount(plane_k
;; AND row), 128 dimensions an instruction. sign-dots.wasm is this file compiled by wabt's wat2wasm
;; (`npx -p wabt@1.0.39 wat2wasm sign-dots.wat`); denseRows.test.ts checks its answers against a plain sum.
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = Σ_d bit(rows[r · width], d) · u[d] for r < n, as int32, where u[d] = Σ_k 2^k · bit(query[k ·
  ;; width], d): the four planes of the query follow each other, `width` bytes each; `width` is a multiple of 16.
  (func (export "dots") (param $rows i32) (param $query i32) (param $n i32) (param $width i32) (param $out i32)
    (local $end i32) (local $d i32) (local $group i32) (local $q1 i32) (local $q2 i32) (local $q3 i32)
    (local $sum v128) (local $b v128) (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $q1 (i32.add (local.get $query) (local.get $width)))
    (local.set $q2 (i32.add (local.get $q1) (local.get $width)))
    (local.set $q3 (i32.add (local.get $q2) (local.get $width)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum (v128.const i32x4 0 0 0 0))
        (local.set $d (i32.const 0))
        (loop $groups
          ;; Each plane's counts add up in int8 lanes for at most 31 blocks of 16 bytes (31 · 8 = 248).
          (local.set $group (i32.add (local.get $d) (i32.const 496)))
          (if (i32.gt_u (local.get $group) (local.get $width)) (then (local.set $group (local.get $width))))
          (local.set $c0 (v128.const i32x4 0 0 0 0))
          (local.set $c1 (v128.const i32x4 0 0 0 0))
          (local.set $c2 (v128.const i32x4 0 0 0 0))
          (local.set $c3 (v128.const i32x4 0 0 0 0))
          (loop $dim
            (local.set $b (v128.load (i32.add (local.get $rows) (local.get $d))))
            (local.set $c0 (i8x16.add (local.get $c0)
              (i8x16.popcnt (v128.and (local.get $b) (v128.load (i32.add (local.get $query) (local.get $d)))))))
            (local.set $c1 (i8x16.add (local.get $c1)
              (i8x16.popcnt (v128.and (local.get $b) (v128.load (i32.add (local.get $q1) (local.get $d)))))))
            (local.set $c2 (i8x16.add (local.get $c2)
              (i8x16.popcnt (v128.and (local.get $b) (v128.load (i32.add (local.get $q2) (local.get $d)))))))
            (local.set $c3 (i8x16.add (local.get $c3)
              (i8x16.popcnt (v128.and (local.get $b) (v128.load (i32.add (local.get $q3) (local.get $d)))))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br_if $dim (i32.lt_u (local.get $d) (local.get $group))))
          ;; The planes weighed 1, 2, 4, 8 in int16 lanes (at most 2 · 248 · 15 = 7,440), then added as int32.
          (local.set $sum (i32x4.add (local.get $sum) (i32x4.extadd_pairwise_i16x8_u
            (i16x8.add
              (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $c0))
                (i16x8.shl (i16x8.extadd_pairwise_i8x16_u (local.get $c1)) (i32.const 1)))
              (i16x8.add (i16x8.shl (i16x8.extadd_pairwise_i8x16_u (local.get $c2)) (i32.const 2))
                (i16x8.shl (i16x8.extadd_pairwise_i8x16_u (local.get $c3)) (i32.const 3)))))))
          (br_if $groups (i32.lt_u (local.get $d) (local.get $width))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $rows (i32.add (local.get $rows) (local.get $width)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
