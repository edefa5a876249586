package dev.cairn.sidecar.kafka;

import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sidecar reads before it registers: the partition of its job on a topic, and the job's latest
 * retained checkpoints on {@code cairn.completed} (read from the beginning of the job's partition to its end,
 * committed records only; the last value for the job's key wins, as compaction would keep it).
 */
final class StartupReads {

    private static final Logger LOG = LoggerFactory.getLogger(StartupReads.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private StartupReads() {
    }

    /** A point in time start-up must finish by. */
    record Deadline(long atNanos, Duration total) {
        static Deadline after(Duration timeout) {
            return new Deadline(System.nanoTime() + timeout.toNanos(), timeout);
        }

        Duration remaining() {
            return Duration.ofNanos(Math.max(1_000_000, atNanos - System.nanoTime()));
        }

        boolean passed() {
            return System.nanoTime() - atNanos >= 0;
        }
    }

    /**
     * The partition {@code jobId} maps to on {@code topic}, waiting (until the deadline) for the topic to exist:
     * a sidecar may start before the coordinator has created the topics.
     */
    static TopicPartition partitionFor(Consumer<?, ?> consumer, String topic, String jobId, Deadline deadline) {
        RuntimeException last = null;
        while (!deadline.passed()) {
            try {
                List<PartitionInfo> partitions = consumer.partitionsFor(topic, minimum(deadline.remaining(),
                        Duration.ofSeconds(5)));
                if (partitions != null && !partitions.isEmpty()) {
                    return new TopicPartition(topic, JobPartitions.of(jobId, partitions.size()));
                }
            } catch (RetriableException e) {
                last = e;
            }
            pause();
        }
        throw new IllegalStateException("topic " + topic + " does not exist or has no partitions after "
                + deadline.total().toMillis() + " ms (is the coordinator running? it creates the topics)", last);
    }

    /** The job's latest values on the completed topic: its retained checkpoints and its restore parts by number. */
    record RestoreRecords(Optional<RetainedCheckpoints> retained, Map<String, RestorePart> parts) {
    }

    /**
     * The job's latest values on the completed topic, reading its partition to the end once: the retained
     * checkpoints (empty when none, or only a tombstone) and the restore parts (the latest value per part key),
     * decoded with the schemas {@code schemas} finds for a fingerprint of no shipped version ({@code null}: none).
     */
    static RestoreRecords restoreRecords(RuntimeSettings settings, Deadline deadline, SchemaStore schemas) {
        AvroEventSerde<RetainedCheckpoints> serde = CairnSerdes.forEnvelope(RetainedCheckpoints.class, schemas);
        AvroEventSerde<RestorePart> partSerde = CairnSerdes.forEnvelope(RestorePart.class, schemas);
        String topic = settings.topics().completed();
        String jobId = settings.jobId();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(settings, "restore"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = partitionFor(consumer, topic, jobId, deadline);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), deadline.remaining()).get(partition);
            Optional<RetainedCheckpoints> latest = Optional.empty();
            Map<String, RestorePart> parts = new HashMap<>();
            while (consumer.position(partition, deadline.remaining()) < end) {
                if (deadline.passed()) {
                    throw new IllegalStateException("could not read " + partition + " to its end (offset " + end
                            + ") within " + deadline.total().toMillis() + " ms");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    boolean retainedKey = jobId.equals(record.key());
                    if (!retainedKey && !CairnTopics.isRestorePartOf(record.key(), jobId)) {
                        continue;
                    }
                    try {
                        if (retainedKey) {
                            latest = Optional.ofNullable(record.value()).map(v -> serde.deserialize(topic, v));
                        } else if (record.value() == null) {
                            parts.remove(record.key());
                        } else {
                            parts.put(record.key(), partSerde.deserialize(topic, record.value()));
                        }
                    } catch (EventDecodingException e) {
                        LOG.warn("Skipping an unreadable restore record of job {} at {}@{}: {}", jobId, partition,
                                record.offset(), e.getMessage());
                    }
                }
            }
            return new RestoreRecords(latest, parts);
        }
    }

    private static Duration minimum(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Cairn's topics", e);
        }
    }
}
