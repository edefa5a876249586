package dev.cairn.sidecar.kafka;

import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.topics.JobPartitions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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

    /** The job's latest value on the completed topic, or empty when it has none (or only a tombstone). */
    static Optional<RetainedCheckpoints> latestRetained(RuntimeSettings settings, Deadline deadline) {
        AvroEventSerde<RetainedCheckpoints> serde = CairnSerdes.retained();
        String topic = settings.topics().completed();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(settings, "restore"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = partitionFor(consumer, topic, settings.jobId(), deadline);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), deadline.remaining()).get(partition);
            Optional<RetainedCheckpoints> latest = Optional.empty();
            while (consumer.position(partition, deadline.remaining()) < end) {
                if (deadline.passed()) {
                    throw new IllegalStateException("could not read " + partition + " to its end (offset " + end
                            + ") within " + deadline.total().toMillis() + " ms");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    if (!settings.jobId().equals(record.key())) {
                        continue;
                    }
                    if (record.value() == null) {
                        latest = Optional.empty();
                        continue;
                    }
                    try {
                        latest = Optional.of(serde.deserialize(topic, record.value()));
                    } catch (EventDecodingException e) {
                        LOG.warn("Skipping unreadable retained checkpoints of job {} at {}@{}: {}", settings.jobId(),
                                partition, record.offset(), e.getMessage());
                    }
                }
            }
            return latest;
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
