;; The scan `SignCodes` runs: for each of `n` slots (i32, at `slots`), the sum over the
;; slot's `bytes` code bytes (at `codes` + slot × bytes) of the query's table entry for
;; that byte (i16, at `lut` + (position × 256 + byte) × 2), written as an i32 at `out`.
;; `bytes` is a multiple of 4. Rows are read in blocks of 256: a first tight pass touches
;; one byte of each row, so their cache misses are in flight together, and the second
;; pass sums them from cache; summing row by row waits out one miss per row.
;; Returns the touched bytes' sum, so the first pass is not optimised away.
;; Compiled into signScanWasm.ts by scripts/signScanWasm.ts.
(module
  (import "env" "memory" (memory 1))
  (func (export "scan") (param $slots i32) (param $n i32) (param $codes i32) (param $bytes i32)
        (param $lut i32) (param $out i32) (result i32)
    (local $end i32) (local $blockEnd i32) (local $q i32) (local $sink i32)
    (local $p i32) (local $k i32) (local $t i32) (local $s i32)
    (local.set $end (i32.add (local.get $slots) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $blockEnd (local.get $slots))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $slots) (local.get $end)))
        (if (i32.ge_u (local.get $slots) (local.get $blockEnd))
          (then
            (local.set $blockEnd (i32.add (local.get $slots) (i32.const 1024)))
            (if (i32.gt_u (local.get $blockEnd) (local.get $end))
              (then (local.set $blockEnd (local.get $end))))
            (local.set $q (local.get $slots))
            (loop $touch
              (local.set $sink (i32.add (local.get $sink)
                (i32.load8_u (i32.add (local.get $codes)
                  (i32.mul (i32.load (local.get $q)) (local.get $bytes))))))
              (local.set $q (i32.add (local.get $q) (i32.const 4)))
              (br_if $touch (i32.lt_u (local.get $q) (local.get $blockEnd))))))
        (local.set $p (i32.add (local.get $codes)
          (i32.mul (i32.load (local.get $slots)) (local.get $bytes))))
        (local.set $s (i32.const 0))
        (local.set $t (local.get $lut))
        (local.set $k (i32.const 0))
        (loop $cols
          (local.set $s (i32.add (local.get $s)
            (i32.add
              (i32.add
                (i32.load16_s (i32.add (local.get $t)
                  (i32.shl (i32.load8_u (i32.add (local.get $p) (local.get $k))) (i32.const 1))))
                (i32.load16_s offset=512 (i32.add (local.get $t)
                  (i32.shl (i32.load8_u offset=1 (i32.add (local.get $p) (local.get $k))) (i32.const 1)))))
              (i32.add
                (i32.load16_s offset=1024 (i32.add (local.get $t)
                  (i32.shl (i32.load8_u offset=2 (i32.add (local.get $p) (local.get $k))) (i32.const 1))))
                (i32.load16_s offset=1536 (i32.add (local.get $t)
                  (i32.shl (i32.load8_u offset=3 (i32.add (local.get $p) (local.get $k))) (i32.const 1))))))))
          (local.set $t (i32.add (local.get $t) (i32.const 2048)))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br_if $cols (i32.lt_u (local.get $k) (local.get $bytes))))
        (i32.store (local.get $out) (local.get $s))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $slots (i32.add (local.get $slots) (i32.const 4)))
        (br $rows)))
    (local.get $sink))
)
