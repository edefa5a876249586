/**
 * Benchmarks of the coordinator. Every figure is measured next to its reference in the same run: the
 * end-to-end benchmark next to a trivial Kafka Streams application on the same broker, the core benchmark next
 * to Flink's CheckpointCoordinator in the same JVM.
 */
package dev.cairn.bench;
