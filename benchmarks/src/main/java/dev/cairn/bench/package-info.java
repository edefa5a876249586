/**
 * Benchmarks of the coordinator. Every figure is measured next to its reference in the same run: the
 * end-to-end benchmark next to a trivial Kafka Streams application on the same broker, the core benchmark next
 * to Flink's CheckpointCoordinator in the same JVM. Only the end-to-end benchmark produces sidecar records: it
 * signs them with each job's key and its coordinators verify them, the coordinator's default (secured) mode, unless
 * {@code --unsigned}. The core benchmark calls the decider without Kafka, and the audit benchmark writes and reads
 * a journal, which the coordinator writes unsigned (signatures guard the acks topic only): neither signs anything.
 */
package dev.cairn.bench;
