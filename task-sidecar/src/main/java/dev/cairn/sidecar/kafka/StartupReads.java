package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.message.SchemaStore;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sidecar reads before it registers: the partition of its job on a topic, the job's latest
 * retained checkpoints on {@code cairn.completed} (read from the beginning of the job's partition to its end,
 * committed records only; the last value for the job's key wins, as compaction would keep it), and the job's
 * completions and discards on {@code cairn.control} shortly before its position ({@link #lookBack}).
 */
final class StartupReads {

    private static final Logger LOG = LoggerFactory.getLogger(StartupReads.class);
    private static final Duration POLL = Duration.ofMillis(100);

    /**
     * How far back before its position a starting sidecar looks on the control topic for completions its restore
     * point may not show yet. A completion can be visible on control while the completed topic still shows the
     * restore point before it only until the transaction that wrote both has its commit marker on the completed
     * topic's partition as well: once its leader is back after a leader change, seconds. The completion's record
     * carries the time it was written, inside that transaction, at most the coordinator's transaction timeout (5 s
     * by default) before the commit. Five minutes covers both many times over and stays a cheap read (the
     * partition's records of a few minutes) whatever the control topic's retention; a completion written earlier has
     * long been visible on the completed topic too, so the restore point read there shows it already. A fixed value,
     * not a setting: the sidecar cannot know the coordinator's transaction timeout, and nothing is gained by reading
     * less.
     *
     * <p>The same read collects the job's discards ({@link StateDiscarded}, {@link AckDiscarded}) so that the worker
     * of a sidecar that restarts deletes what was discarded while it was down. Only for this long: the objects of a
     * discard published earlier stay where they are (the journal lists them, {@code cairn audit} shows them).
     */
    static final Duration CONTROL_LOOKBACK = Duration.ofMinutes(5);

    private StartupReads() {
    }

    /**
     * The reads of a starting sidecar whose control consumer is assigned {@code partition}, its position
     * {@code end}: the look-back on control ({@link #lookBack}, which leaves the consumer at {@code end}), and the
     * completed topic ({@link #restoreRecords}).
     */
    static StartupSource source(RuntimeSettings settings, Consumer<String, byte[]> control, TopicPartition partition,
            long end, Deadline deadline, SchemaStore schemas, Clock clock) {
        return new StartupSource() {
            @Override
            public ControlLookBack controlLookBack() {
                return lookBack(control, partition, end, settings.jobId(),
                        clock.millis() - CONTROL_LOOKBACK.toMillis(), deadline, schemas);
            }

            @Override
            public RestoreRecords restoreRecords() {
                return StartupReads.restoreRecords(settings, deadline, schemas);
            }
        };
    }

    /**
     * What a starting sidecar saw of its job on control before its position, in the order of the partition: the
     * job's completions, and its discards ({@link StateDiscarded} and {@link AckDiscarded}) for the core to hand out
     * ({@link dev.cairn.sidecar.core.SidecarCore#discardedBeforeStart}).
     */
    record ControlLookBack(List<CheckpointCompleted> completions, List<Object> discards) {

        static final ControlLookBack NOTHING = new ControlLookBack(List.of(), List.of());
    }

    /**
     * The completions and discards of {@code jobId} on the control partition {@code partition} (committed records
     * only, as the consumer reads) from the first record written at or after {@code sinceMs} up to, not including,
     * {@code end}; then seeks the consumer back to {@code end}. Other jobs' records and unreadable ones are skipped
     * (the latter logged); nothing is read when no record is that recent.
     */
    static ControlLookBack lookBack(Consumer<String, byte[]> control, TopicPartition partition, long end, String jobId,
            long sinceMs, Deadline deadline, SchemaStore schemas) {
        AvroEventSerde<ControlEnvelope> serde = CairnSerdes.forEnvelope(ControlEnvelope.class, schemas);
        OffsetAndTimestamp since = control.offsetsForTimes(Map.of(partition, Math.max(0, sinceMs)),
                deadline.remaining()).get(partition);
        if (since == null || since.offset() >= end) {
            return ControlLookBack.NOTHING;
        }
        List<CheckpointCompleted> found = new ArrayList<>();
        List<Object> discards = new ArrayList<>();
        control.seek(partition, since.offset());
        while (control.position(partition, deadline.remaining()) < end) {
            if (deadline.passed()) {
                throw new IllegalStateException("could not read " + partition + " from offset " + since.offset()
                        + " to " + end + " within " + deadline.total().toMillis() + " ms");
            }
            for (ConsumerRecord<String, byte[]> record : control.poll(POLL)) {
                if (record.offset() >= end || !jobId.equals(record.key()) || record.value() == null) {
                    continue;
                }
                try {
                    Object event = serde.deserialize(partition.topic(), record.value()).getEvent();
                    if (event instanceof CheckpointCompleted completed) {
                        found.add(completed);
                    } else if (event instanceof StateDiscarded || event instanceof AckDiscarded) {
                        discards.add(event);
                    }
                } catch (EventDecodingException e) {
                    LOG.warn("Skipping an unreadable control record of job {} at {}@{} (looking back for"
                            + " completions and discards): {}", jobId, partition, record.offset(), e.getMessage());
                }
            }
        }
        control.seek(partition, end);
        LOG.debug("Looked back on {} from offset {} to {}: {} completion(s) and {} discard(s) of job {}", partition,
                since.offset(), end, found.size(), discards.size(), jobId);
        return new ControlLookBack(found, discards);
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
        pause(POLL);
    }

    /** Waits {@code time} (start-up's pace while it waits for a topic to show something). */
    static void pause(Duration time) {
        try {
            Thread.sleep(time.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Cairn's topics", e);
        }
    }
}
