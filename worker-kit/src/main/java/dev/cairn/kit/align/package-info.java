/**
 * Barrier alignment, as Flink's aligned checkpoints do it, without Kafka types, clock or I/O: a task's input
 * channels are (input partition, upstream subtask) pairs known up front; {@link dev.cairn.kit.align.BarrierAligner}
 * is told what arrives on each and answers what to do ({@link dev.cairn.kit.align.Step}); a snapshot carries the
 * {@link dev.cairn.kit.align.InputPositions} a restored task replays from.
 */
package dev.cairn.kit.align;
