/**
 * Cairn's worker kit: Chandy-Lamport snapshots over Kafka for workers that read and write Kafka topics, so that a
 * dataflow of such workers (a source, keyed operators repartitioned through Kafka topics, a sink) is exactly-once
 * when it is restored from the latest completed checkpoint.
 *
 * <ul>
 *   <li>{@link dev.cairn.kit.wire}: the records tasks exchange (data, barrier and resume records, told apart by
 *       headers), written and read by {@link dev.cairn.kit.wire.KitRecords};</li>
 *   <li>{@link dev.cairn.kit.align}: barrier alignment ({@link dev.cairn.kit.align.BarrierAligner}, pure) and
 *       the input positions a task restores from ({@link dev.cairn.kit.align.InputPositions});</li>
 *   <li>{@link dev.cairn.kit.sink}: the exactly-once write-ahead sink ({@link dev.cairn.kit.sink.WriteAheadSink});</li>
 *   <li>{@link dev.cairn.kit.task}: the tasks a sidecar drives, so far the source
 *       ({@link dev.cairn.kit.task.KafkaSourceTask}).</li>
 * </ul>
 */
package dev.cairn.kit;
