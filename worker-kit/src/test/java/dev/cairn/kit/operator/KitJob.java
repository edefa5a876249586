package dev.cairn.kit.operator;

import dev.cairn.events.CheckpointType;
import dev.cairn.kit.sink.WriteAheadSinkConfig;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.kit.task.SourceFunction;
import dev.cairn.kit.task.SourceTaskConfig;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A kit dataflow in one JVM for the ITs, with the test in the coordinator's place: source (parallelism 2) →
 * {@code keyed} → count (2) → {@code counts} → sink (2) → {@code results}. {@link #checkpoint} asks every subtask for
 * a snapshot, as sidecars would after a trigger, and completes or aborts it; {@link #restart} replaces one subtask
 * by a new incarnation restored from its snapshot of the latest completed checkpoint, as a restarted process would.
 */
final class KitJob implements AutoCloseable {

    static final int PARALLELISM = 2;
    private static final Duration SNAPSHOT_WAIT = Duration.ofSeconds(30);

    /** A running count per key: the new count as decimal text. */
    static final OperatorFunction COUNT = (key, value, state) -> {
        byte[] previous = state.get(key);
        long count = previous == null ? 1 : Long.parseLong(new String(previous, StandardCharsets.US_ASCII)) + 1;
        byte[] text = Long.toString(count).getBytes(StandardCharsets.US_ASCII);
        state.put(key, text);
        return List.of(new SourceFunction.Output(key, text));
    };

    /** The sink's function: every record as it came. */
    static final OperatorFunction IDENTITY = (key, value, state) -> List.of(new SourceFunction.Output(key, value));

    private final String bootstrap;
    private final String prefix;
    private final Path checkpoints;
    private final Map<String, SnapshotHook> subtasks = new LinkedHashMap<>();
    private final Map<String, String> completedStates = new LinkedHashMap<>();
    private long nextId = 1;
    private long latestCompleted = -1;

    KitJob(String bootstrap, String prefix, Path checkpoints) {
        this.bootstrap = bootstrap;
        this.prefix = prefix;
        this.checkpoints = checkpoints;
    }

    String input() {
        return prefix + ".events";
    }

    String results() {
        return prefix + ".results";
    }

    /**
     * The topics and their partitions: input 2, keyed 4, counts 4, results 2, the sink's commit markers and the
     * operators' dead letters 1.
     */
    Map<String, Integer> topics() {
        return Map.of(input(), 2, prefix + ".keyed", 4, prefix + ".counts", 4, results(), 2,
                results() + ".commits", 1, prefix + ".keyed.dead-letters", 1, prefix + ".counts.dead-letters", 1);
    }

    /** Starts every subtask from the initial state. */
    void start() throws Exception {
        for (String name : names()) {
            start(name, Optional.empty());
        }
    }

    /** The names of the subtasks: source-0, source-1, count-0, ... */
    List<String> names() {
        List<String> names = new ArrayList<>();
        for (String task : List.of("source", "count", "sink")) {
            for (int subtask = 0; subtask < PARALLELISM; subtask++) {
                names.add(task + "-" + subtask);
            }
        }
        return names;
    }

    SnapshotHook subtask(String name) {
        return subtasks.get(name);
    }

    /**
     * Takes checkpoint N on every subtask and completes it when all answered, or aborts it when one declined.
     * Answers whether it completed.
     */
    boolean checkpoint() throws Exception {
        long id = nextId++;
        Map<String, CompletableFuture<SnapshotResult>> answers = new LinkedHashMap<>();
        String location = checkpoints.resolve("chk-" + id).toUri().toString();
        for (Map.Entry<String, SnapshotHook> subtask : subtasks.entrySet()) {
            String[] parts = subtask.getKey().split("-");
            SnapshotRequest request = new SnapshotRequest(id, System.currentTimeMillis(), CheckpointType.CHECKPOINT,
                    location, prefix, parts[0], Integer.parseInt(parts[1])).withLatestCompletedId(latestCompleted);
            answers.put(subtask.getKey(), subtask.getValue().snapshot(request).toCompletableFuture());
        }
        Map<String, String> states = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, CompletableFuture<SnapshotResult>> answer : answers.entrySet()) {
                states.put(answer.getKey(), answer.getValue().get(SNAPSHOT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                        .location());
            }
        } catch (ExecutionException | TimeoutException declined) {
            for (SnapshotHook hook : subtasks.values()) {
                hook.notifyAborted(new CheckpointAbort(id, latestCompleted, false));
            }
            return false;
        }
        completedStates.putAll(states);
        latestCompleted = id;
        for (SnapshotHook hook : subtasks.values()) {
            hook.notifyComplete(CheckpointCompletion.of(id, -1));
        }
        return true;
    }

    /** Replaces subtask {@code name} by a new incarnation restored from the latest completed checkpoint. */
    SnapshotHook restart(String name) throws Exception {
        subtasks.remove(name).close();
        String location = completedStates.get(name);
        return start(name, location == null ? Optional.empty()
                : Optional.of(new RestorePoint(latestCompleted, location, 0)));
    }

    /** Starts a subtask restored from {@code point}, without telling the others. */
    SnapshotHook start(String name, Optional<RestorePoint> point) throws Exception {
        String[] parts = name.split("-");
        int subtask = Integer.parseInt(parts[1]);
        SnapshotHook hook = switch (parts[0]) {
            case "source" -> new KafkaSourceTask(SourceTaskConfig.of(prefix + "-source", subtask, PARALLELISM,
                    input(), prefix + ".keyed", bootstrap), SourceFunction.identity());
            case "count" -> new KafkaOperatorTask(OperatorTaskConfig.of(prefix + "-count", subtask, PARALLELISM,
                    PARALLELISM, prefix + ".keyed", bootstrap), COUNT, new KitTopicOutput(prefix + ".counts",
                    subtask, Map.of("bootstrap.servers", bootstrap)));
            default -> new KafkaOperatorTask(OperatorTaskConfig.of(prefix + "-sink", subtask, PARALLELISM,
                    PARALLELISM, prefix + ".counts", bootstrap), IDENTITY,
                    new SinkOutput(WriteAheadSinkConfig.of(prefix + "-sink", subtask, results(), bootstrap)));
        };
        hook.restore(point);
        subtasks.put(name, hook);
        return hook;
    }

    long latestCompleted() {
        return latestCompleted;
    }

    @Override
    public void close() throws Exception {
        for (SnapshotHook hook : subtasks.values()) {
            hook.close();
        }
    }
}
