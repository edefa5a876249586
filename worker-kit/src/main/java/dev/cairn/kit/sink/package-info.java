/**
 * The kit's exactly-once sink: a write-ahead two-phase commit over Kafka (Flink's {@code GenericWriteAheadSink}).
 *
 * <p>{@link dev.cairn.kit.sink.WriteAheadSink} buffers the records of each epoch, writes the uncommitted epochs
 * into the checkpoint's snapshot file ({@link dev.cairn.kit.sink.SinkStateCodec}) and writes them to the output
 * topic in one Kafka transaction, with a commit marker, when the checkpoint completes. The bookkeeping
 * ({@link dev.cairn.kit.sink.PendingEpochs}, {@link dev.cairn.kit.sink.RestorePlan}) is pure and holds no Kafka
 * type; {@link dev.cairn.kit.sink.KafkaEpochCommitter} is the Kafka part.
 */
package dev.cairn.kit.sink;
