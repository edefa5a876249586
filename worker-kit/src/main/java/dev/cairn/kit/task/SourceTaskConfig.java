package dev.cairn.kit.task;

import dev.cairn.kit.state.Settings;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.kit.storage.SnapshotStorages;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What a source subtask reads and writes and how it reaches Kafka.
 *
 * @param taskId the source task's id, shared by its subtasks: letters, digits, '.', '_' and '-' (names the state
 *     file {@code source-<taskId>-<subtask>.state})
 * @param subtask this subtask's index, within 0 and {@code parallelism - 1}
 * @param parallelism the number of subtasks of the source now (a restore from a checkpoint of another parallelism
 *     takes the positions of its partitions from every old subtask's state)
 * @param inputTopic the topic read (subtask {@code i} reads the partitions {@code p % parallelism == i})
 * @param outputTopic the topic written (kit records, partitioned by key group, {@link Partitioning#forKey})
 * @param clientConfig settings for the consumer and producer ({@code bootstrap.servers}, security); the task sets
 *     group, offset-commit, idempotence and acknowledgement settings itself
 * @param startFrom where a fresh start reads from
 * @param bounded whether the input ends at the end offsets seen at start: once reached, the next snapshot answers
 *     {@link dev.cairn.sidecar.hook.SnapshotResult#finishedWith} (for tests and known inputs)
 * @param pollTimeout how long one poll waits for input (also how late a snapshot request may be noticed)
 * @param storage where the subtask writes and reads its snapshot files (the checkpoint's storage location says
 *     where in it); {@link SnapshotStorages#defaults()} unless given: local files, and S3 as the environment says
 * @param downstreamMaxParallelism the max parallelism of the task reading the output topic: a record goes to the
 *     partition of its key group among that many ({@link Partitioning#DEFAULT_MAX_PARALLELISM} unless given)
 */
public record SourceTaskConfig(String taskId, int subtask, int parallelism, String inputTopic, String outputTopic,
        Map<String, Object> clientConfig, StartFrom startFrom, boolean bounded, Duration pollTimeout,
        SnapshotStorage storage, int downstreamMaxParallelism) {

    /** Where a fresh start reads from. */
    public enum StartFrom { EARLIEST, LATEST }

    public SourceTaskConfig {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(outputTopic, "outputTopic");
        Objects.requireNonNull(startFrom, "startFrom");
        Objects.requireNonNull(pollTimeout, "pollTimeout");
        Objects.requireNonNull(storage, "storage");
        clientConfig = Map.copyOf(Objects.requireNonNull(clientConfig, "clientConfig"));
        Settings.requireId("a task id", taskId);
        Partitioning.assigned(0, parallelism, subtask);
        if (inputTopic.isBlank() || outputTopic.isBlank()) {
            throw new IllegalArgumentException("the input and output topics must not be blank");
        }
        Settings.requireClientSettings("the source", clientConfig, ConsumerConfig.GROUP_ID_CONFIG,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                ProducerConfig.ACKS_CONFIG, ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        Settings.requirePositive("the poll timeout", pollTimeout);
        Partitioning.keyGroup(new byte[0], downstreamMaxParallelism);
    }

    /** A subtask writing for a downstream task of the default max parallelism. */
    public SourceTaskConfig(String taskId, int subtask, int parallelism, String inputTopic, String outputTopic,
            Map<String, Object> clientConfig, StartFrom startFrom, boolean bounded, Duration pollTimeout,
            SnapshotStorage storage) {
        this(taskId, subtask, parallelism, inputTopic, outputTopic, clientConfig, startFrom, bounded, pollTimeout,
                storage, Partitioning.DEFAULT_MAX_PARALLELISM);
    }

    /** A subtask keeping its snapshots in {@link SnapshotStorages#defaults()}. */
    public SourceTaskConfig(String taskId, int subtask, int parallelism, String inputTopic, String outputTopic,
            Map<String, Object> clientConfig, StartFrom startFrom, boolean bounded, Duration pollTimeout) {
        this(taskId, subtask, parallelism, inputTopic, outputTopic, clientConfig, startFrom, bounded, pollTimeout,
                SnapshotStorages.defaults());
    }

    /** This subtask keeping its snapshots in {@code storage} (the caller closes it, after the task). */
    public SourceTaskConfig withStorage(SnapshotStorage storage) {
        return new SourceTaskConfig(taskId, subtask, parallelism, inputTopic, outputTopic, clientConfig, startFrom,
                bounded, pollTimeout, storage, downstreamMaxParallelism);
    }

    /** This subtask writing for a downstream task of max parallelism {@code maxParallelism}. */
    public SourceTaskConfig withDownstreamMaxParallelism(int maxParallelism) {
        return new SourceTaskConfig(taskId, subtask, parallelism, inputTopic, outputTopic, clientConfig, startFrom,
                bounded, pollTimeout, storage, maxParallelism);
    }

    /** Unbounded, from the earliest offsets, with only a bootstrap address and a 100 ms poll. */
    public static SourceTaskConfig of(String taskId, int subtask, int parallelism, String inputTopic,
            String outputTopic, String bootstrapServers) {
        return new SourceTaskConfig(taskId, subtask, parallelism, inputTopic, outputTopic,
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), StartFrom.EARLIEST, false,
                Duration.ofMillis(100));
    }

    /** The consumer's settings: the client settings, no offset commits, read_committed unless set. */
    public Map<String, Object> consumerSettings() {
        Map<String, Object> settings = new HashMap<>(clientConfig);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-kit-source-" + taskId + "-" + subtask);
        return settings;
    }

    /** The producer's settings: the client settings, acks=all, idempotence, a 5 ms linger unless set. */
    public Map<String, Object> producerSettings() {
        Map<String, Object> settings = new HashMap<>(clientConfig);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "cairn-kit-source-" + taskId + "-" + subtask + "-out");
        return settings;
    }

    /** The name of this subtask's state file in a checkpoint's storage location. */
    public String stateFileName() {
        return "source-" + taskId + "-" + subtask + ".state";
    }
}
