package dev.cairn.coordinator.streams;

import dev.cairn.events.SnapshotChunk;
import dev.cairn.events.SnapshotEnvelope;
import dev.cairn.events.SnapshotManifest;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps snapshots on {@code cairn.snapshots} (the journal topic's name with {@code snapshots} for {@code journal}):
 * partition {@code p} holds the snapshots of journal partition {@code p}, laid out by {@link SnapshotCodec}, written
 * by a producer and read by a consumer of their own with the application's connection settings.
 *
 * <p>Reading scans the partition's keys for the newest manifest (the topic is compacted, with segments closed
 * hourly, so it holds about one snapshot per partition plus what was written since) and then reads that snapshot's
 * chunks from its first. Writing writes the chunks, waits for them, writes the manifest, then removes (tombstones)
 * every chunk of another snapshot that the partition held: a writer stopped half way leaves the previous manifest
 * and its chunks whole, and what it wrote is removed by the next writer.
 */
public final class KafkaSnapshotStore implements SnapshotStore {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSnapshotStore.class);
    /** About how many bytes of entries one chunk holds: far below the topic's {@code max.message.bytes}. */
    static final int CHUNK_BYTES = 512 * 1024;
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration STALL = Duration.ofSeconds(60);

    private final AvroEventSerde<SnapshotEnvelope> serde = CairnSerdes.snapshots();

    @Override
    public Optional<Snapshot> latest(Map<String, Object> appConfigs, String journalTopic, int partition) {
        TopicPartition snapshots = new TopicPartition(topic(journalTopic), partition);
        try (KafkaConsumer<byte[], byte[]> consumer = RestoreConsumers.open(appConfigs, "snapshots-" + partition)) {
            Scan scan = scan(consumer, snapshots);
            if (scan.manifest == null) {
                return Optional.empty();
            }
            SnapshotManifest manifest = scan.manifest;
            if (manifest.getLayout() != StoreLayout.CURRENT) {
                LOG.warn("The newest snapshot of partition {} (journal offset {}) is of store layout {}, this release "
                        + "writes layout {}: the rebuild folds the journal from its first record", partition,
                        manifest.getJournalOffset(), manifest.getLayout(), StoreLayout.CURRENT);
                return Optional.empty();
            }
            Map<Integer, SnapshotChunk> chunks = new HashMap<>();
            String prefix = SnapshotCodec.chunkKeyPrefix(manifest.getJournalOffset());
            read(consumer, snapshots, manifest.getFirstChunkOffset(), scan.manifestOffset, record -> {
                String key = key(record);
                if (key != null && key.startsWith(prefix) && record.value() != null
                        && serde.deserialize(snapshots.topic(), record.value()).getPart()
                                instanceof SnapshotChunk chunk
                        && chunk.getJournalOffset() == manifest.getJournalOffset()) {
                    chunks.put(chunk.getChunk(), chunk);
                }
            });
            return Optional.of(SnapshotCodec.decode(manifest, chunks));
        } catch (RuntimeException e) {
            LOG.error("The snapshots of partition {} on {} cannot be read ({}): the rebuild folds the journal from its "
                    + "first record", partition, snapshots.topic(), e.toString());
            return Optional.empty();
        }
    }

    @Override
    public long records(Map<String, Object> appConfigs, String journalTopic, int partition) {
        TopicPartition snapshots = new TopicPartition(topic(journalTopic), partition);
        try (KafkaConsumer<byte[], byte[]> consumer = RestoreConsumers.open(appConfigs, "snapshots-" + partition)) {
            List<TopicPartition> partitions = List.of(snapshots);
            return consumer.endOffsets(partitions, STALL).get(snapshots)
                    - consumer.beginningOffsets(partitions, STALL).get(snapshots);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void write(Map<String, Object> appConfigs, String journalTopic, Snapshot snapshot) {
        String topic = topic(journalTopic);
        TopicPartition snapshots = new TopicPartition(topic, snapshot.partition());
        Set<String> older;
        try (KafkaConsumer<byte[], byte[]> consumer = RestoreConsumers.open(appConfigs,
                "snapshots-" + snapshot.partition())) {
            older = scan(consumer, snapshots).chunkKeys;
        }
        List<SnapshotChunk> chunks = SnapshotCodec.chunks(snapshot, CHUNK_BYTES);
        try (KafkaProducer<String, byte[]> producer = producer(appConfigs, snapshot.partition())) {
            long first = -1;
            for (SnapshotChunk chunk : chunks) {
                String key = SnapshotCodec.chunkKey(snapshot.journalOffset(), chunk.getChunk());
                older.remove(key);
                RecordMetadata written = send(producer, snapshots, key, new SnapshotEnvelope(chunk));
                first = first < 0 ? written.offset() : first;
            }
            send(producer, snapshots, SnapshotCodec.MANIFEST_KEY,
                    new SnapshotEnvelope(SnapshotCodec.manifest(snapshot, chunks, first)));
            for (String key : older) {
                producer.send(new ProducerRecord<>(topic, snapshots.partition(), key, null));
            }
            producer.flush();
        }
        LOG.info("Wrote the {} in {} chunks to {} (removed {} older chunks)", snapshot, chunks.size(), snapshots,
                older.size());
    }

    private RecordMetadata send(KafkaProducer<String, byte[]> producer, TopicPartition partition, String key,
            SnapshotEnvelope value) {
        try {
            return producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), key,
                    serde.serialize(partition.topic(), value))).get(STALL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("writing a snapshot to " + partition + " was interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new StreamsException("writing a snapshot to " + partition + " failed: " + e, e);
        }
    }

    private static KafkaProducer<String, byte[]> producer(Map<String, Object> appConfigs, int partition) {
        StreamsConfig streams = new StreamsConfig(appConfigs);
        Map<String, Object> config = streams.getProducerConfigs(
                streams.getString(StreamsConfig.APPLICATION_ID_CONFIG) + "-snapshots-" + partition);
        config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, CairnTopics.SNAPSHOT_MAX_BYTES);
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private static String topic(String journalTopic) {
        return CairnTopics.of(journalTopic, CairnTopics::journal).orElseThrow(() -> new IllegalArgumentException(
                journalTopic + " is not a journal topic's name")).snapshots();
    }

    /** What a partition holds: its newest manifest and where it is, and the chunks it still has. */
    private static final class Scan {
        private SnapshotManifest manifest;
        private long manifestOffset = -1;
        private final Set<String> chunkKeys = new LinkedHashSet<>();
    }

    private Scan scan(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition) {
        Scan scan = new Scan();
        read(consumer, partition, 0, Long.MAX_VALUE, record -> {
            String key = key(record);
            if (SnapshotCodec.isChunkKey(key)) {
                if (record.value() == null) {
                    scan.chunkKeys.remove(key);
                } else {
                    scan.chunkKeys.add(key);
                }
            } else if (SnapshotCodec.MANIFEST_KEY.equals(key) && record.value() != null) {
                manifest(partition, record).ifPresent(manifest -> {
                    scan.manifest = manifest;
                    scan.manifestOffset = record.offset();
                });
            }
        });
        return scan;
    }

    /** The manifest a record holds; empty, logged, for one that is not a manifest (the one before it stays newest). */
    private Optional<SnapshotManifest> manifest(TopicPartition partition, ConsumerRecord<byte[], byte[]> record) {
        try {
            if (serde.deserialize(partition.topic(), record.value()).getPart() instanceof SnapshotManifest manifest) {
                return Optional.of(manifest);
            }
            LOG.error("Record {} of {} under the manifest key holds no manifest: skipped", record.offset(), partition);
        } catch (RuntimeException e) {
            LOG.error("Record {} of {} under the manifest key does not decode, so it is skipped: {}", record.offset(),
                    partition, e.getMessage());
        }
        return Optional.empty();
    }

    /** Hands the partition's records from {@code from} up to {@code before} (or its end) to {@code sink}. */
    private static void read(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long from, long before,
            Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        consumer.assign(List.of(partition));
        long end = Math.min(before, consumer.endOffsets(List.of(partition), STALL).get(partition));
        long first = consumer.beginningOffsets(List.of(partition), STALL).get(partition);
        consumer.seek(partition, Math.max(first, from));
        long lastProgress = System.nanoTime();
        while (consumer.position(partition) < end) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(consumer.poll(POLL).records(partition));
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (record.offset() >= end) {
                    return;
                }
                sink.accept(record);
            }
            if (!records.isEmpty()) {
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                throw new StreamsException("reading " + partition + " made no progress for " + STALL.toSeconds()
                        + " s at offset " + consumer.position(partition) + " of " + end);
            }
        }
    }

    private static String key(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    }
}
