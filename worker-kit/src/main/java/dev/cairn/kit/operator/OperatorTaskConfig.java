package dev.cairn.kit.operator;

import dev.cairn.events.keygroups.KeyGroupRanges;
import dev.cairn.kit.align.Channel;
import dev.cairn.kit.state.Settings;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.kit.task.Partitioning;
import dev.cairn.sidecar.hook.KeyGroupRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * What an operator subtask reads and how it reaches Kafka (where it writes is its {@link TaskOutput}).
 *
 * @param taskId the operator task's id, shared by its subtasks: letters, digits, '.', '_' and '-' (names the state
 *     file {@code operator-<taskId>-<subtask>.state})
 * @param subtask this subtask's index, within 0 and {@code parallelism - 1}
 * @param parallelism the number of subtasks of the operator now (a restore from a checkpoint of another parallelism
 *     is a rescale: the subtask reads the states its sidecar hands it)
 * @param upstreamParallelism the number of subtasks writing the input topic now: each writes every partition, so a
 *     partition carries that many channels
 * @param inputTopic the kit topic read (subtask {@code i} reads the partitions whose key groups overlap its own,
 *     {@link #keyGroups()}; the writers route by key group with this task's max parallelism)
 * @param clientConfig settings for the consumer ({@code bootstrap.servers}, security); the task sets group and
 *     offset-commit settings itself
 * @param pollTimeout how long one poll waits for input (also how late a request or notification may be served)
 * @param storage where the subtask writes and reads its snapshot files (the checkpoint's storage location says
 *     where in it); {@link SnapshotStorages#defaults()} unless given: local files, and S3 as the environment says
 * @param maxParallelism the task's max parallelism: the number of key groups of its keyed state, fixed for the
 *     job's life ({@link KeyGroupRanges#defaultMaxParallelism} of the parallelism unless given)
 */
public record OperatorTaskConfig(String taskId, int subtask, int parallelism, int upstreamParallelism,
        String inputTopic, Map<String, Object> clientConfig, Duration pollTimeout, SnapshotStorage storage,
        int maxParallelism) {

    public OperatorTaskConfig {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(inputTopic, "inputTopic");
        Objects.requireNonNull(pollTimeout, "pollTimeout");
        clientConfig = Map.copyOf(Objects.requireNonNull(clientConfig, "clientConfig"));
        Settings.requireId("a task id", taskId);
        Partitioning.assigned(0, parallelism, subtask);
        if (upstreamParallelism < 1) {
            throw new IllegalArgumentException("an operator reads at least one upstream subtask, was "
                    + upstreamParallelism);
        }
        if (inputTopic.isBlank()) {
            throw new IllegalArgumentException("the input topic must not be blank");
        }
        Settings.requireClientSettings("the operator", clientConfig, ConsumerConfig.GROUP_ID_CONFIG,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
        Settings.requirePositive("the poll timeout", pollTimeout);
        String problem = KeyGroupRanges.problem(maxParallelism, parallelism);
        if (problem != null) {
            throw new IllegalArgumentException("operator " + taskId + ": " + problem);
        }
    }

    /** A subtask of the default max parallelism for its parallelism. */
    public OperatorTaskConfig(String taskId, int subtask, int parallelism, int upstreamParallelism,
            String inputTopic, Map<String, Object> clientConfig, Duration pollTimeout, SnapshotStorage storage) {
        this(taskId, subtask, parallelism, upstreamParallelism, inputTopic, clientConfig, pollTimeout, storage,
                KeyGroupRanges.defaultMaxParallelism(parallelism));
    }

    /** A subtask keeping its snapshots in {@link SnapshotStorages#defaults()}. */
    public OperatorTaskConfig(String taskId, int subtask, int parallelism, int upstreamParallelism,
            String inputTopic, Map<String, Object> clientConfig, Duration pollTimeout) {
        this(taskId, subtask, parallelism, upstreamParallelism, inputTopic, clientConfig, pollTimeout,
                SnapshotStorages.defaults());
    }

    /** This subtask keeping its snapshots in {@code storage} (the caller closes it, after the task). */
    public OperatorTaskConfig withStorage(SnapshotStorage storage) {
        return new OperatorTaskConfig(taskId, subtask, parallelism, upstreamParallelism, inputTopic, clientConfig,
                pollTimeout, storage, maxParallelism);
    }

    /**
     * This subtask with {@code maxParallelism} key groups: the same for every subtask of the task and for its whole
     * life (a restore of another max parallelism fails), and what the writers of the input topic route by.
     */
    public OperatorTaskConfig withMaxParallelism(int maxParallelism) {
        return new OperatorTaskConfig(taskId, subtask, parallelism, upstreamParallelism, inputTopic, clientConfig,
                pollTimeout, storage, maxParallelism);
    }

    /** The key groups this subtask owns ({@link KeyGroupRange#forSubtask}). */
    public KeyGroupRange keyGroups() {
        return KeyGroupRange.forSubtask(maxParallelism, parallelism, subtask);
    }

    /** A subtask with only a bootstrap address and a 50 ms poll. */
    public static OperatorTaskConfig of(String taskId, int subtask, int parallelism, int upstreamParallelism,
            String inputTopic, String bootstrapServers) {
        return new OperatorTaskConfig(taskId, subtask, parallelism, upstreamParallelism, inputTopic,
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), Duration.ofMillis(50));
    }

    /** The channels of the input partitions this subtask reads: every upstream subtask in every partition. */
    public List<Channel> channels(List<Integer> partitions) {
        List<Channel> channels = new ArrayList<>();
        for (int partition : partitions) {
            for (int upstream = 0; upstream < upstreamParallelism; upstream++) {
                channels.add(Channel.of(inputTopic, partition, upstream));
            }
        }
        return channels;
    }

    /** The consumer's settings: the client settings, no offset commits, read_committed unless set. */
    public Map<String, Object> consumerSettings() {
        Map<String, Object> settings = new HashMap<>(clientConfig);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-kit-operator-" + taskId + "-" + subtask);
        return settings;
    }

    /** The name of this subtask's state file in a checkpoint's storage location. */
    public String stateFileName() {
        return stateFileName(subtask);
    }

    /** The name of subtask {@code index}'s state file of this task in a checkpoint's storage location. */
    public String stateFileName(int index) {
        return "operator-" + taskId + "-" + index + ".state";
    }

    /** The subtask's name in logs and errors. */
    public String name() {
        return taskId + "-" + subtask;
    }
}
