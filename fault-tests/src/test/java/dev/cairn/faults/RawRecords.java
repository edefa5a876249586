package dev.cairn.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What an attacker who can read and write topics but holds no key does: {@link #capture} copies every record of some
 * topics as bytes (key, value, headers: the signature is a header), and {@link #writeAgain} produces the copies
 * unchanged with a plain byte producer, each to the partition it came from, with the timestamp it had.
 */
final class RawRecords {

    private static final Duration READ = Duration.ofSeconds(30);

    /** One record as read: where it was, and its bytes. */
    record Captured(String topic, int partition, long offset, long timestamp, byte[] key, byte[] value,
            Headers headers) {
    }

    /** A captured record written again, and the offset the copy got in the same partition. */
    record Copy(Captured original, long offset) {
    }

    private RawRecords() {
    }

    /** Every record of {@code topics} up to their ends now, in the order of their timestamps. */
    static List<Captured> capture(String bootstrapServers, List<String> topics) {
        List<Captured> captured = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic, READ).forEach(p -> partitions.add(new TopicPartition(topic,
                        p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, READ);
            long deadline = System.nanoTime() + READ.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p, READ) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topics + " to " + ends + " within " + READ);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    captured.add(new Captured(record.topic(), record.partition(), record.offset(), record.timestamp(),
                            record.key(), record.value(), new RecordHeaders(record.headers().toArray())));
                }
            }
        }
        captured.sort(Comparator.comparingLong(Captured::timestamp));
        return captured;
    }

    /** Produces every captured record again, unchanged, in the order given; returns where each copy went. */
    static List<Copy> writeAgain(String bootstrapServers, List<Captured> records) {
        List<Copy> copies = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (Captured record : records) {
                sent.add(producer.send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(),
                        record.key(), record.value(), record.headers())));
            }
            for (int i = 0; i < records.size(); i++) {
                copies.add(new Copy(records.get(i), sent.get(i).get().offset()));
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot write the captured records again", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return copies;
    }
}
