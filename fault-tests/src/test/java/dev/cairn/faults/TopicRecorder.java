package dev.cairn.faults;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code cairn.journal}, {@code cairn.control} and {@code cairn.acks} from their beginning on a thread of
 * its own, read_committed (as sidecars and other coordinators read), and keeps every event with the wall-clock
 * time at which it became visible here. Keeps reading across broker restarts. Thread-safe.
 */
final class TopicRecorder implements AutoCloseable {

    /** One event as read: which topic, the event inside the envelope, and when this reader saw it. */
    record Seen(String topic, int partition, long offset, Object event, long seenAtMs) {}

    private final CairnTopics topics;
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<Seen> seen = new ArrayList<>();
    private final Thread reader;
    private volatile boolean running = true;

    /** Starts reading; the topics must exist (the coordinator creates them). */
    TopicRecorder(String bootstrapServers, CairnTopics topics) {
        this.topics = topics;
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
                new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(topics.journal(), topics.control(), topics.acks())) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.reader = new Thread(this::readUntilClosed, "topic-recorder");
        reader.setDaemon(true);
        reader.start();
    }

    private void readUntilClosed() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    Seen event = new Seen(record.topic(), record.partition(), record.offset(),
                            decode(record.topic(), record.value()), System.currentTimeMillis());
                    synchronized (this) {
                        seen.add(event);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private Object decode(String topic, byte[] value) {
        if (topic.equals(topics.journal())) {
            JournalEnvelope envelope = CairnSerdes.journal().deserializer().deserialize(topic, value);
            return envelope.getEvent();
        }
        if (topic.equals(topics.control())) {
            ControlEnvelope envelope = CairnSerdes.control().deserializer().deserialize(topic, value);
            return envelope.getEvent();
        }
        AckEnvelope envelope = CairnSerdes.acks().deserializer().deserialize(topic, value);
        return envelope.getEvent();
    }

    /** Every event of {@code type} read so far from {@code topic} that matches, in the order seen. */
    synchronized <T> List<T> events(String topic, Class<T> type, Predicate<T> matching) {
        return seen.stream().filter(s -> s.topic().equals(topic) && type.isInstance(s.event()))
                .map(s -> type.cast(s.event())).filter(matching).toList();
    }

    /** Every record of {@code topic} read so far whose event is of {@code type} and matches. */
    synchronized <T> List<Seen> seen(String topic, Class<T> type, Predicate<T> matching) {
        return seen.stream().filter(s -> s.topic().equals(topic) && type.isInstance(s.event())
                && matching.test(type.cast(s.event()))).toList();
    }

    CairnTopics topics() {
        return topics;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
