package dev.cairn.bench.pipeline;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the coordinator's journal (read_committed, from the beginning) and counts, per job, the job specs it
 * accepted and the checkpoints it completed and aborted. The calling thread reads; not thread-safe.
 */
final class JournalCounts implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<String, JournalEnvelope> consumer;
    private final Set<String> accepted = new HashSet<>();
    private final Map<String, String> rejected = new HashMap<>();
    private final Map<String, Integer> completed = new HashMap<>();
    private final Map<String, Integer> aborted = new HashMap<>();

    JournalCounts(String bootstrap, String journalTopic) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(),
                CairnSerdes.journal().deserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(journalTopic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(journalTopic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads until the coordinator accepted {@code jobId}'s spec; throws when it rejected it or took too long. */
    void awaitAccepted(String jobId, Duration timeout) {
        readUntil(() -> accepted.contains(jobId) || rejected.containsKey(jobId), timeout, "the job spec of " + jobId);
        if (!accepted.contains(jobId)) {
            throw new IllegalStateException("the coordinator rejected the job spec of " + jobId + ": "
                    + rejected.get(jobId));
        }
    }

    /** Reads until {@code count} checkpoints of {@code jobId} completed. */
    void awaitCompleted(String jobId, int count, Duration timeout) {
        readUntil(() -> completed(jobId) >= count, timeout, count + " completed checkpoint(s) of " + jobId);
    }

    /** Reads what the journal holds now. */
    void readToEnd() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        readUntil(() -> ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue()),
                Duration.ofSeconds(30), "the end of the journal");
    }

    int completed(String jobId) {
        return completed.getOrDefault(jobId, 0);
    }

    int aborted(String jobId) {
        return aborted.getOrDefault(jobId, 0);
    }

    private void readUntil(BooleanSupplier done, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the journal did not show " + what + " within " + timeout);
            }
            for (ConsumerRecord<String, JournalEnvelope> record : consumer.poll(POLL)) {
                count(record.value().getEvent());
            }
        }
    }

    private void count(Object event) {
        if (event instanceof JobSpec spec) {
            accepted.add(spec.getJobId().toString());
        } else if (event instanceof CommandRejected rejection
                && "RegisterJob".contentEquals(rejection.getCommandType())) {
            rejected.put(String.valueOf(rejection.getJobId()), String.valueOf(rejection));
        } else if (event instanceof CheckpointCompleted c) {
            completed.merge(c.getJobId().toString(), 1, Integer::sum);
        } else if (event instanceof CheckpointAborted a) {
            aborted.merge(a.getJobId().toString(), 1, Integer::sum);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
