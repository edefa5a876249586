/**
 * The kit's tasks: what a worker runs beside a sidecar. {@link dev.cairn.kit.task.KafkaSourceTask} reads its share
 * of an input topic's partitions ({@link dev.cairn.kit.task.Partitioning}), applies a
 * {@link dev.cairn.kit.task.SourceFunction} and writes kit data records, partitioned by key, with a barrier into
 * every output partition at each snapshot; its snapshot ({@link dev.cairn.kit.task.SourceStateCodec}) holds its
 * input positions and its generation.
 */
package dev.cairn.kit.task;
