package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.SizeRow;
import dev.cairn.bench.e2e.Workload.Job;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Record sizes of one checkpoint of one job of N subtasks: the bytes (keys and values) of the job's records on
 * {@code control} for that checkpoint, i.e. what every one of its sidecars reads, and the largest value the
 * coordinator wrote meanwhile to any of its topics (journal, control, completed, dlq and its store changelogs),
 * read back from the broker. A trigger or completion too large for a Kafka record is dead-lettered by the
 * coordinator; the row then says so, as soon as the dead letter is read.
 */
final class RecordSizeRun {

    private RecordSizeRun() {}

    static SizeRow run(String bootstrap, CoordinatorInstance coordinator, CairnDriver driver, int subtasks) {
        driver.drainDeadLetters();
        Job job;
        try {
            job = driver.register(1, subtasks).get(0);
        } catch (RowFailedException e) {
            return new SizeRow(subtasks, 0, 0, "", "did not start: " + e.getMessage());
        }
        List<String> topics = coordinatorTopics(bootstrap, coordinator);
        Map<TopicPartition, Long> before = ends(bootstrap, topics);
        driver.countControlBytes(job.id());
        String failure = null;
        try {
            Map<String, Long> ids = driver.triggerAll(List.of(job));
            driver.sendAcks(List.of(job), ids);
            driver.awaitCompletions(ids);
        } catch (RowFailedException e) {
            failure = "did not complete: " + e.getMessage();
        }
        Map<TopicPartition, Long> after = ends(bootstrap, topics);
        long[] largest = {0};
        String[] where = {""};
        scan(bootstrap, before, after, record -> {
            if (record.serializedValueSize() > largest[0]) {
                largest[0] = record.serializedValueSize();
                where[0] = record.topic();
            }
        });
        SizeRow row = new SizeRow(subtasks, driver.controlBytes(job.id()), largest[0], where[0], failure);
        System.out.printf(Locale.ROOT, "  sizes, %,d subtasks: %,d control bytes per sidecar, largest record %,d B"
                + " on %s%s%n", subtasks, row.controlBytes(), row.largestBytes(), row.largestTopic(),
                failure == null ? "" : "; " + failure);
        return row;
    }

    /** The coordinator's output topics and its store changelogs. */
    private static List<String> coordinatorTopics(String bootstrap, CoordinatorInstance coordinator) {
        var names = coordinator.config().topics();
        List<String> topics = new ArrayList<>(List.of(names.journal(), names.control(), names.completed(),
                names.dlq()));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Set<String> all = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            all.stream().filter(t -> t.startsWith(coordinator.config().applicationId() + "-")).sorted()
                    .forEach(topics::add);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list the topics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return topics;
    }

    private static Map<TopicPartition, Long> ends(String bootstrap, List<String> topics) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (String topic : topics) {
            ends.putAll(RawConsume.endOffsets(bootstrap, topic));
        }
        return ends;
    }

    /** Reads {@code [from, to)} of every partition (committed records) and hands each record over. */
    private static void scan(String bootstrap, Map<TopicPartition, Long> from, Map<TopicPartition, Long> to,
            java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (from.keySet().stream().anyMatch(p -> consumer.position(p) < to.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.offset() < to.get(new TopicPartition(record.topic(), record.partition()))) {
                        handler.accept(record);
                    }
                }
            }
        }
    }
}
