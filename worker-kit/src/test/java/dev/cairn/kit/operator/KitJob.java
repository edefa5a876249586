package dev.cairn.kit.operator;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.WriteAheadSinkConfig;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.kit.task.SourceFunction;
import dev.cairn.kit.task.SourceState;
import dev.cairn.kit.task.SourceStateCodec;
import dev.cairn.kit.task.SourceTaskConfig;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A kit dataflow in one JVM for the ITs, with the test in the coordinator's place: source (parallelism 2) →
 * {@code keyed} → count (2) → {@code counts} → sink (2) → {@code results}. {@link #checkpoint} asks every subtask for
 * a snapshot, as sidecars would after a trigger, and completes or aborts it; {@link #restart} replaces one subtask
 * by a new incarnation restored from its snapshot of the latest completed checkpoint, as a restarted process would.
 * {@link #stop} stops the job with a savepoint, which becomes the restore point, as the coordinator does;
 * {@link #rescale} then starts the tasks with other parallelisms, each subtask restored from the states the coordinator
 * would hand it (a keyed state to every subtask whose key groups overlap it, a source's state to every source subtask).
 */
final class KitJob implements AutoCloseable {

    static final int PARALLELISM = 2;
    static final int MAX_PARALLELISM = 128;
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
    private final Map<String, SnapshotResult> completedStates = new LinkedHashMap<>();
    private final Map<String, RestorePoint> restorePoints = new LinkedHashMap<>();
    private final Map<String, Integer> parallelism = new LinkedHashMap<>(Map.of("source", PARALLELISM, "count",
            PARALLELISM, "sink", PARALLELISM));
    private final Map<String, SinkOutput> sinkOutputs = new LinkedHashMap<>();
    private long nextId = 1;
    /**
     * The number of the next subtask incarnation the job starts, as a sidecar's registration would give it: later
     * incarnations announce newer generations whatever states they restore.
     */
    private long attempts;
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
            for (int subtask = 0; subtask < parallelism.get(task); subtask++) {
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
        Optional<Map<String, SnapshotResult>> states = snapshotAll(id, CheckpointType.CHECKPOINT,
                CheckpointOptions.DEFAULTS, checkpoints.resolve("chk-" + id));
        if (states.isEmpty()) {
            return false;
        }
        completed(id, states.get());
        for (SnapshotHook hook : subtasks.values()) {
            hook.notifyComplete(CheckpointCompletion.of(id, -1));
        }
        return true;
    }

    /**
     * Stops the job with a savepoint (drain: post-checkpoint action TERMINATE, else SUSPEND), as the coordinator
     * would: every subtask snapshots into the savepoint's directory, the savepoint completes and becomes the
     * restore point, and every subtask but those in {@code crashBeforeCommit} hears that the job is stopping.
     * Those are closed without hearing of it, as if they crashed after the savepoint completed and before they
     * committed; {@link #restart} brings them back. Answers the savepoint's id.
     *
     * @throws IllegalStateException when a subtask declined the savepoint
     */
    long stop(boolean drain, Set<String> crashBeforeCommit) throws Exception {
        long id = nextId++;
        CheckpointOptions options = new CheckpointOptions(BackupType.FULL, SavepointFormat.CANONICAL,
                drain ? PostCheckpointAction.TERMINATE : PostCheckpointAction.SUSPEND, AlignmentType.ALIGNED, -1);
        Map<String, SnapshotResult> states = snapshotAll(id, CheckpointType.SAVEPOINT, options,
                checkpoints.resolve("savepoint-" + id)).orElseThrow(() -> new IllegalStateException(
                        "the stop-with-savepoint " + id + " was declined"));
        completed(id, states);
        for (String crashed : crashBeforeCommit) {
            subtasks.remove(crashed).close();
        }
        for (SnapshotHook hook : subtasks.values()) {
            hook.notifyComplete(new CheckpointCompletion(id, -1, true, drain));
        }
        return id;
    }

    private void completed(long id, Map<String, SnapshotResult> states) {
        completedStates.clear();
        completedStates.putAll(states);
        latestCompleted = id;
        restorePoints.clear();
        states.forEach((name, state) -> restorePoints.put(name, new RestorePoint(id, state.location(), 0)));
    }

    /**
     * The stopped job goes on with the tasks' parallelisms in {@code changed} (the others as they were), as the
     * coordinator rescales it: every subtask of the old parallelism is closed, and every subtask of the new one
     * starts restored from the states the restore point hands it ({@link #rescaledPoint}).
     */
    void rescale(Map<String, Integer> changed) throws Exception {
        for (SnapshotHook hook : subtasks.values()) {
            hook.close();
        }
        subtasks.clear();
        Map<String, Integer> previous = new LinkedHashMap<>(parallelism);
        parallelism.putAll(changed);
        restorePoints.clear();
        for (String name : names()) {
            String task = name.split("-")[0];
            int subtask = Integer.parseInt(name.split("-")[1]);
            restorePoints.put(name, rescaledPoint(task, subtask, previous.get(task)));
        }
        for (String name : names()) {
            start(name, Optional.of(restorePoints.get(name)));
        }
    }

    /**
     * What the coordinator hands subtask {@code subtask} of {@code task} after a rescale from {@code previous}
     * subtasks: its own state when the parallelism did not change; else of a keyed task every old state whose
     * declared key groups overlap the subtask's, and of a source every old state (declared {@code UNION}).
     */
    private RestorePoint rescaledPoint(String task, int subtask, int previous) {
        int now = parallelism.get(task);
        boolean keyed = !task.equals("source");
        KeyGroupRange range = keyed ? KeyGroupRange.forSubtask(MAX_PARALLELISM, now, subtask) : null;
        List<RestoredState> states = new ArrayList<>();
        for (int old = 0; old < previous; old++) {
            SnapshotResult state = completedStates.get(task + "-" + old);
            if (previous == now && old != subtask
                    || keyed && !state.keyGroups().overlaps(range)) {
                continue;
            }
            states.add(new RestoredState(old, state.location(), state.sizeBytes(), List.of(), state.keyGroups(),
                    state.operatorStateMode()));
        }
        String own = previous == now ? states.get(0).location() : null;
        return new RestorePoint(latestCompleted, own, 0, false, List.of(), now, previous, MAX_PARALLELISM, range,
                states);
    }

    /** The job resumes (its status RUNNING again): every subtask restarts from the restore point. */
    void resume() throws Exception {
        for (String name : names()) {
            restart(name);
        }
    }

    /** How many input records the sources had read when they took their snapshots of checkpoint {@code id}. */
    long inputRead(long id) throws Exception {
        long read = 0;
        for (int subtask = 0; Files.exists(sourceFile(id, subtask)); subtask++) {
            read += sourceState(id, subtask).positions().values().stream().mapToLong(Long::longValue).sum();
        }
        return read;
    }

    /** Source subtask {@code subtask}'s state of checkpoint or savepoint {@code id}. */
    SourceState sourceState(long id, int subtask) throws Exception {
        return SourceStateCodec.read(new FileStorage(), sourceFile(id, subtask).toString());
    }

    private Path sourceFile(long id, int subtask) {
        Path directory = checkpoints.resolve("chk-" + id);
        if (!Files.exists(directory)) {
            directory = checkpoints.resolve("savepoint-" + id);
        }
        return directory.resolve("source-" + prefix + "-source-" + subtask + ".state");
    }

    /** What sink subtask {@code name} decided at its latest start. */
    Optional<RestorePlan> restorePlan(String name) {
        return sinkOutputs.get(name).lastRestore();
    }

    /** What sink subtask {@code name} resolved of old subtasks' snapshots at its latest rescaled start. */
    List<RestorePlan> handedOver(String name) {
        return sinkOutputs.get(name).handedOver();
    }

    private Optional<Map<String, SnapshotResult>> snapshotAll(long id, CheckpointType type, CheckpointOptions options,
            Path directory) throws Exception {
        Map<String, CompletableFuture<SnapshotResult>> answers = new LinkedHashMap<>();
        String location = directory.toUri().toString();
        for (Map.Entry<String, SnapshotHook> subtask : subtasks.entrySet()) {
            String[] parts = subtask.getKey().split("-");
            SnapshotRequest request = SnapshotRequest.forTask(id, System.currentTimeMillis(), type, location, prefix,
                    parts[0], Integer.parseInt(parts[1]), options).withLatestCompletedId(latestCompleted);
            answers.put(subtask.getKey(), subtask.getValue().snapshot(request).toCompletableFuture());
        }
        Map<String, SnapshotResult> states = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, CompletableFuture<SnapshotResult>> answer : answers.entrySet()) {
                states.put(answer.getKey(), answer.getValue().get(SNAPSHOT_WAIT.toMillis(), TimeUnit.MILLISECONDS));
            }
        } catch (ExecutionException | TimeoutException declined) {
            for (SnapshotHook hook : subtasks.values()) {
                hook.notifyAborted(new CheckpointAbort(id, latestCompleted, options.synchronous()));
            }
            return Optional.empty();
        }
        return Optional.of(states);
    }

    /** Replaces subtask {@code name} by a new incarnation restored from the latest completed checkpoint. */
    SnapshotHook restart(String name) throws Exception {
        SnapshotHook previous = subtasks.remove(name);
        if (previous != null) {
            previous.close();
        }
        return start(name, Optional.ofNullable(restorePoints.get(name)));
    }

    /** Starts a subtask restored from {@code point}, without telling the others. */
    SnapshotHook start(String name, Optional<RestorePoint> point) throws Exception {
        String[] parts = name.split("-");
        int subtask = Integer.parseInt(parts[1]);
        SnapshotHook hook = switch (parts[0]) {
            case "source" -> new KafkaSourceTask(SourceTaskConfig.of(prefix + "-source", subtask,
                    parallelism.get("source"), input(), prefix + ".keyed", bootstrap), SourceFunction.identity());
            case "count" -> new KafkaOperatorTask(OperatorTaskConfig.of(prefix + "-count", subtask,
                    parallelism.get("count"), parallelism.get("source"), prefix + ".keyed", bootstrap), COUNT,
                    new KitTopicOutput(prefix + ".counts", subtask, Map.of("bootstrap.servers", bootstrap)));
            default -> {
                SinkOutput output = new SinkOutput(WriteAheadSinkConfig.of(prefix + "-sink", subtask, results(),
                        bootstrap));
                sinkOutputs.put(name, output);
                yield new KafkaOperatorTask(OperatorTaskConfig.of(prefix + "-sink", subtask,
                        parallelism.get("sink"), parallelism.get("count"), prefix + ".counts", bootstrap), IDENTITY,
                        output);
            }
        };
        hook.restore(point, new AttemptNumber(name + "-" + attempts, attempts++));
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
