package dev.cairn.coordinator.streams;

import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.JobPartitions;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * How records reach the completed topic: {@link RetainedCheckpoints} under the job id and {@link RestorePart}s
 * (or their tombstones) under a part key, each in its own serde, all on the job's partition, where a sidecar
 * reads them.
 */
final class CompletedTopicRecords {

    private CompletedTopicRecords() {
    }

    /** Serializes either value type with its own frozen-version serde; a tombstone stays null. */
    static Serializer<SpecificRecord> serializer() {
        AvroEventSerde<RetainedCheckpoints> retained = CairnSerdes.retained();
        AvroEventSerde<RestorePart> parts = CairnSerdes.restoreParts();
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            if (value instanceof RetainedCheckpoints r) {
                return retained.serialize(topic, r);
            }
            if (value instanceof RestorePart p) {
                return parts.serialize(topic, p);
            }
            throw new IllegalArgumentException("the completed topic carries no " + value.getSchema().getName());
        };
    }

    /** Puts every record on the partition of the job its key names ({@link JobPartitions}). */
    static StreamPartitioner<String, SpecificRecord> partitioner() {
        return (topic, key, value, numPartitions) -> Optional.of(Set.of(JobPartitions.of(jobIdOf(key), numPartitions)));
    }

    /** The job id of a key: the key itself, or what precedes a restore part key's NUL character. */
    static String jobIdOf(String key) {
        int separator = key.lastIndexOf('\u0000');
        return separator < 0 ? key : key.substring(0, separator);
    }
}
