package dev.cairn.demo;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Follows {@code cairn.journal} (committed records only) and tallies what happened to the demo job. */
final class DemoJournal implements AutoCloseable {

    private final KafkaConsumer<String, JournalEnvelope> consumer;
    private final List<Long> completed = new ArrayList<>();
    private final Map<CheckpointFailureReason, Integer> abortedByReason = new TreeMap<>();
    private final List<RequestOutcome> outcomes = new ArrayList<>();
    private final java.util.ArrayDeque<Object> unread = new java.util.ArrayDeque<>();
    private long events;

    DemoJournal(String bootstrapServers, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50), new StringDeserializer(),
                CairnSerdes.journal().deserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /**
     * Reads the journal until {@code until} holds for an event or the time is up; true when it held. Events polled
     * after the one that held are kept for the next call.
     */
    boolean followUntil(Predicate<Object> until, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (true) {
            while (!unread.isEmpty()) {
                Object event = unread.poll();
                tally(event);
                if (until.test(event)) {
                    return true;
                }
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            for (ConsumerRecord<String, JournalEnvelope> record : consumer.poll(Duration.ofMillis(100))) {
                unread.add(record.value().getEvent());
            }
        }
    }

    private void tally(Object event) {
        events++;
        if (event instanceof CheckpointCompleted c) {
            completed.add(c.getCheckpointId());
        } else if (event instanceof CheckpointAborted a) {
            abortedByReason.merge(a.getReason(), 1, Integer::sum);
        } else if (event instanceof RequestOutcome o) {
            outcomes.add(o);
        }
    }

    List<Long> completed() {
        return completed;
    }

    Map<CheckpointFailureReason, Integer> abortedByReason() {
        return abortedByReason;
    }

    List<RequestOutcome> outcomes() {
        return outcomes;
    }

    long events() {
        return events;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
