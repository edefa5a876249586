package dev.cairn.sidecar.hook.command;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RecordNotifiedHook;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import dev.cairn.sidecar.hook.http.HookJson;
import dev.cairn.sidecar.hook.http.MalformedHookMessageException;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A worker reached by running a command (an argv list, run without a shell unless the command itself is
 * {@code sh -c ...}) once per call, with the call in environment variables:
 * <ul>
 *   <li>{@code CAIRN_HOOK_ACTION}: {@code snapshot}, {@code complete}, {@code abort}, {@code restore} or
 *       {@code discard};</li>
 *   <li>snapshot: {@code CAIRN_CHECKPOINT_ID}, {@code CAIRN_CHECKPOINT_TYPE} ({@code CHECKPOINT} or
 *       {@code SAVEPOINT}), {@code CAIRN_CHECKPOINT_TIMESTAMP} (epoch ms), {@code CAIRN_STORAGE_LOCATION},
 *       {@code CAIRN_JOB_ID}, then {@code CAIRN_TASK_ID} and {@code CAIRN_SUBTASK_INDEX} for a task or
 *       {@code CAIRN_PARTICIPANT} for a participant, then the options: {@code CAIRN_BACKUP_TYPE},
 *       {@code CAIRN_SAVEPOINT_FORMAT}, {@code CAIRN_POST_CHECKPOINT_ACTION}, {@code CAIRN_ALIGNMENT},
 *       {@code CAIRN_ALIGNED_TIMEOUT_MS}, {@code CAIRN_SYNCHRONOUS} and {@code CAIRN_DRAIN} ({@code true} or
 *       {@code false}), and {@code CAIRN_LATEST_COMPLETED_ID}: the newest completed checkpoint of the job the
 *       sidecar knew of when it asked, -1 when none ({@link SnapshotRequest#latestCompletedId}: a worker
 *       restored from an older one must decline);</li>
 *   <li>complete: {@code CAIRN_CHECKPOINT_ID}, {@code CAIRN_LAST_SUBSUMED_ID} (-1 when none),
 *       {@code CAIRN_STOPPING} and {@code CAIRN_DRAIN} ({@code true} for a stop-with-savepoint, the job stops);
 *       abort: {@code CAIRN_CHECKPOINT_ID}, {@code CAIRN_LATEST_COMPLETED_ID} (-1 when none),
 *       {@code CAIRN_STOP_FAILED} ({@code true}: a stop-with-savepoint failed, resume);</li>
 *   <li>restore: {@code CAIRN_RESTORE_CHECKPOINT_ID}, {@code CAIRN_RESTORE_LOCATION} (unset after a rescale,
 *       when the subtask has no own state), {@code CAIRN_RESTORE_SIZE_BYTES}, {@code CAIRN_RESTORE_CHOSEN}
 *       ({@code true} when a user chose the point), {@code CAIRN_RESTORE_SHARED_COUNT} (how many shared objects the
 *       state is made of besides its own) and {@code CAIRN_RESTORE_SHARED_FILE} (a file holding them as a JSON
 *       array, {@code [{"location","sizeBytes","reused"}]}, {@code []} for a self-contained state; a file, not a
 *       variable, since an incremental state may name more objects than an environment holds); then how the task
 *       restores, {@code CAIRN_RESTORE_RESCALED} ({@code true} when its parallelism changed), and when the
 *       coordinator said, {@code CAIRN_RESTORE_PARALLELISM}, {@code CAIRN_RESTORE_PREVIOUS_PARALLELISM},
 *       {@code CAIRN_RESTORE_MAX_PARALLELISM} and {@code CAIRN_RESTORE_KEY_GROUPS} ({@code start-end}: the key
 *       groups the subtask owns now); then every state the subtask reads (its own, or after a rescale those handed
 *       to it): {@code CAIRN_RESTORE_STATES_COUNT}, {@code CAIRN_RESTORE_STATES_FILE} (one line per state,
 *       {@code fromSubtask sizeBytes keyGroups mode location}, {@code -} for key groups or a mode its snapshot did
 *       not declare) and {@code CAIRN_RESTORE_STATES_JSON_FILE} (the same as a JSON array, with each state's shared
 *       objects; see {@link RestoreVariables}). The files are deleted once the command exited; all these are unset
 *       when there is nothing to restore;</li>
 *   <li>discard (optional: a command that ignores it and exits 0 deletes nothing): {@code CAIRN_CHECKPOINT_ID},
 *       {@code CAIRN_DISCARD_LOCATION}, {@code CAIRN_DISCARD_SIZE_BYTES}, {@code CAIRN_DISCARD_SHARED}
 *       ({@code true} for a shared object), and either {@code CAIRN_DISCARD_STATUS} ({@code UNKNOWN},
 *       {@code DISCARDED} or {@code LATE}: an ack the coordinator did not accept) or {@code CAIRN_DISCARD_REASON}
 *       ({@code SUBSUMED}, {@code ABORTED} or {@code DISPOSED}: a checkpoint's state it discarded). The same
 *       object may come again after the sidecar restarts: deleting must be idempotent.</li>
 * </ul>
 * Variables of this protocol that a call does not set are removed from the inherited environment; the
 * optional fixed environment (say {@code CAIRN_JOB_ID} for notify and restore calls) is set on every call.
 *
 * <p>A snapshot acknowledges when the command exits 0 with a snapshot result as JSON on stdout (see
 * {@link HookJson}: a participant may print {@code {}} for no state, a task {@code {"finished":true,...}} when
 * its input is exhausted, an incremental snapshot lists its {@code "shared"} objects, a state that can be rescaled
 * declares its {@code "keyGroups"} or its {@code "operatorStateMode"}); it declines
 * ({@link CheckpointFailureReason#CHECKPOINT_DECLINED}) on a non-zero exit (with the exit code and the last lines of
 * stderr), on a timeout (the command and its descendants are destroyed) and on an exit 0 whose stdout is not a valid
 * result. Other calls throw an {@link IOException} in
 * the same cases, bar the result.
 */
public final class CommandSnapshotHook extends RecordNotifiedHook {

    /** The exit status of a restore whose state is missing or corrupt. */
    static final int UNREADABLE_STATE = 3;

    /** Every variable this protocol sets; inherited values of these never leak into a call. */
    static final List<String> PROTOCOL_VARIABLES = Stream.concat(Stream.of("CAIRN_HOOK_ACTION",
            "CAIRN_CHECKPOINT_ID", "CAIRN_CHECKPOINT_TYPE", "CAIRN_CHECKPOINT_TIMESTAMP", "CAIRN_STORAGE_LOCATION",
            "CAIRN_JOB_ID", "CAIRN_TASK_ID", "CAIRN_SUBTASK_INDEX", "CAIRN_PARTICIPANT", "CAIRN_BACKUP_TYPE",
            "CAIRN_SAVEPOINT_FORMAT", "CAIRN_POST_CHECKPOINT_ACTION", "CAIRN_ALIGNMENT", "CAIRN_ALIGNED_TIMEOUT_MS",
            "CAIRN_SYNCHRONOUS", "CAIRN_DRAIN", "CAIRN_LAST_SUBSUMED_ID", "CAIRN_STOPPING",
            "CAIRN_LATEST_COMPLETED_ID", "CAIRN_STOP_FAILED", "CAIRN_DISCARD_LOCATION", "CAIRN_DISCARD_SIZE_BYTES",
            "CAIRN_DISCARD_STATUS", "CAIRN_DISCARD_REASON", "CAIRN_DISCARD_SHARED"),
            RestoreVariables.NAMES.stream()).toList();

    private static final AtomicInteger HOOKS = new AtomicInteger();

    private final List<String> command;
    private final Duration timeout;
    private final Map<String, String> environment;
    private final ExecutorService drains;
    private final ScheduledExecutorService timer;
    private final Set<ProcessRun> running = ConcurrentHashMap.newKeySet();

    /**
     * @param command the program and its arguments
     * @param timeout how long one run may take before it is destroyed
     */
    public CommandSnapshotHook(List<String> command, Duration timeout) {
        this(command, timeout, Map.of());
    }

    /**
     * @param command the program and its arguments
     * @param timeout how long one run may take before it is destroyed
     * @param environment variables set on every run (a call's own variables take precedence)
     */
    public CommandSnapshotHook(List<String> command, Duration timeout, Map<String, String> environment) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(timeout, "timeout");
        if (command.isEmpty() || command.get(0).isBlank()) {
            throw new IllegalArgumentException("hook command must name a program, was " + command);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("hook command timeout must be positive, was " + timeout);
        }
        this.command = List.copyOf(command);
        this.timeout = timeout;
        this.environment = Map.copyOf(environment);
        int id = HOOKS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.drains = Executors.newCachedThreadPool(runnable ->
                daemon(runnable, "cairn-command-hook-" + id + "-drain-" + threads.incrementAndGet()));
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable ->
                daemon(runnable, "cairn-command-hook-" + id + "-timer"));
    }

    @Override
    public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("CAIRN_HOOK_ACTION", "snapshot");
        variables.put("CAIRN_CHECKPOINT_ID", Long.toString(request.checkpointId()));
        variables.put("CAIRN_CHECKPOINT_TYPE", request.type().name());
        variables.put("CAIRN_CHECKPOINT_TIMESTAMP", Long.toString(request.timestampMs()));
        variables.put("CAIRN_STORAGE_LOCATION", request.storageLocation());
        variables.put("CAIRN_JOB_ID", request.jobId());
        if (request.isParticipant()) {
            variables.put("CAIRN_PARTICIPANT", request.participant());
        } else {
            variables.put("CAIRN_TASK_ID", request.taskId());
            variables.put("CAIRN_SUBTASK_INDEX", Integer.toString(request.subtaskIndex()));
        }
        CheckpointOptions options = request.options();
        variables.put("CAIRN_BACKUP_TYPE", options.backupType().name());
        variables.put("CAIRN_SAVEPOINT_FORMAT", options.savepointFormat().name());
        variables.put("CAIRN_POST_CHECKPOINT_ACTION", options.postCheckpointAction().name());
        variables.put("CAIRN_ALIGNMENT", options.alignment().name());
        variables.put("CAIRN_ALIGNED_TIMEOUT_MS", Long.toString(options.alignedTimeoutMs()));
        variables.put("CAIRN_SYNCHRONOUS", Boolean.toString(options.synchronous()));
        variables.put("CAIRN_DRAIN", Boolean.toString(options.drain()));
        variables.put("CAIRN_LATEST_COMPLETED_ID", Long.toString(request.latestCompletedId()));
        CompletableFuture<ProcessRun.Outcome> run;
        try {
            run = run(variables);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(declined(e.getMessage()));
        }
        CompletableFuture<SnapshotResult> result = new CompletableFuture<>();
        run.whenComplete((outcome, error) -> {
            try {
                if (error != null) {
                    throw declined(describe("snapshot") + " failed: " + error);
                }
                result.complete(result(outcome, request.isParticipant()));
            } catch (SnapshotDeclinedException declined) {
                result.completeExceptionally(declined);
            }
        });
        return result;
    }

    @Override
    public void notifyComplete(CheckpointCompletion completion) throws IOException, InterruptedException {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("CAIRN_HOOK_ACTION", "complete");
        variables.put("CAIRN_CHECKPOINT_ID", Long.toString(completion.checkpointId()));
        variables.put("CAIRN_LAST_SUBSUMED_ID", Long.toString(completion.lastSubsumedId()));
        variables.put("CAIRN_STOPPING", Boolean.toString(completion.stopping()));
        variables.put("CAIRN_DRAIN", Boolean.toString(completion.drain()));
        await("complete", variables);
    }

    @Override
    public void notifyAborted(CheckpointAbort abort) throws IOException, InterruptedException {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("CAIRN_HOOK_ACTION", "abort");
        variables.put("CAIRN_CHECKPOINT_ID", Long.toString(abort.checkpointId()));
        variables.put("CAIRN_LATEST_COMPLETED_ID", Long.toString(abort.latestCompletedId()));
        variables.put("CAIRN_STOP_FAILED", Boolean.toString(abort.stopFailed()));
        await("abort", variables);
    }

    /** Runs the command with {@code CAIRN_HOOK_ACTION=discard}; a command that ignores it deletes nothing. */
    @Override
    public void discardState(DiscardedState state) throws IOException, InterruptedException {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("CAIRN_HOOK_ACTION", "discard");
        variables.put("CAIRN_CHECKPOINT_ID", Long.toString(state.checkpointId()));
        variables.put("CAIRN_DISCARD_LOCATION", state.location());
        variables.put("CAIRN_DISCARD_SIZE_BYTES", Long.toString(state.sizeBytes()));
        variables.put("CAIRN_DISCARD_SHARED", Boolean.toString(state.shared()));
        variables.put(state.fromAck() ? "CAIRN_DISCARD_STATUS" : "CAIRN_DISCARD_REASON", state.cause());
        await("discard", variables);
    }

    @Override
    public void restore(Optional<RestorePoint> from) throws IOException, InterruptedException {
        restore(from, Map.of());
    }

    /** Runs the restore with the attempt in {@code CAIRN_ATTEMPT_ID} and {@code CAIRN_ATTEMPT_NUMBER}. */
    @Override
    public void restore(Optional<RestorePoint> from, AttemptNumber attempt) throws IOException, InterruptedException {
        restore(from, Map.of("CAIRN_ATTEMPT_ID", attempt.attemptId(),
                "CAIRN_ATTEMPT_NUMBER", Long.toString(attempt.number())));
    }

    private void restore(Optional<RestorePoint> from, Map<String, String> attempt)
            throws IOException, InterruptedException {
        Map<String, String> variables = new LinkedHashMap<>(attempt);
        variables.put("CAIRN_HOOK_ACTION", "restore");
        try (RestoreVariables restore = RestoreVariables.of(from)) {
            variables.putAll(restore.variables());
            await("restore", variables);
        }
    }

    /** Destroys the runs still going (and their descendants) and stops this hook's threads. */
    @Override
    public void close() {
        running.forEach(ProcessRun::destroy);
        timer.shutdownNow();
        drains.shutdownNow();
    }

    @Override
    public String toString() {
        return "CommandSnapshotHook[" + String.join(" ", command) + ", timeout " + timeout.toMillis() + " ms]";
    }

    private SnapshotResult result(ProcessRun.Outcome outcome, boolean stateOptional) throws SnapshotDeclinedException {
        Optional<String> failure = failure("snapshot", outcome);
        if (failure.isPresent()) {
            throw declined(failure.get());
        }
        if (outcome.stdoutOverflowed()) {
            throw declined(describe("snapshot") + " wrote more than " + ProcessRun.MAX_STDOUT_BYTES
                    + " bytes to stdout; expected a JSON snapshot result");
        }
        try {
            return HookJson.parseSnapshotResult(outcome.stdout(), stateOptional);
        } catch (MalformedHookMessageException e) {
            throw declined(describe("snapshot") + " exited 0 but its stdout is not a valid snapshot result: "
                    + e.getMessage() + "; stdout: " + HookJson.excerpt(outcome.stdout()));
        }
    }

    /** Why a run failed (timed out or non-zero exit), empty when it exited 0. */
    private Optional<String> failure(String action, ProcessRun.Outcome outcome) {
        if (outcome.timedOut()) {
            return Optional.of(describe(action) + " timed out after " + timeout.toMillis()
                    + " ms and was destroyed with its descendants; stderr tail:\n" + outcome.stderrTail());
        }
        if (outcome.exitCode() != 0) {
            return Optional.of(describe(action) + " exited with code " + outcome.exitCode() + "; stderr tail:\n"
                    + outcome.stderrTail());
        }
        return Optional.empty();
    }

    private void await(String action, Map<String, String> variables) throws IOException, InterruptedException {
        ProcessRun.Outcome outcome;
        try {
            outcome = run(variables).get();
        } catch (ExecutionException e) {
            throw new IOException(describe(action) + " failed: " + e.getCause(), e.getCause());
        }
        Optional<String> failure = failure(action, outcome);
        if (failure.isPresent() && "restore".equals(action) && outcome.exitCode() == UNREADABLE_STATE) {
            throw new StateUnreadableException(failure.get());
        }
        if (failure.isPresent()) {
            throw new IOException(failure.get());
        }
    }

    private CompletableFuture<ProcessRun.Outcome> run(Map<String, String> variables) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        PROTOCOL_VARIABLES.forEach(env::remove);
        env.putAll(environment);
        env.putAll(variables);
        ProcessRun run;
        try {
            run = ProcessRun.start(builder, timeout, drains, timer);
        } catch (IOException | RuntimeException e) {
            throw new IOException("could not start hook command [" + String.join(" ", command) + "] for "
                    + variables.get("CAIRN_HOOK_ACTION") + ": " + e.getMessage(), e);
        }
        running.add(run);
        return run.outcome().whenComplete((outcome, error) -> running.remove(run));
    }

    private String describe(String action) {
        return "hook command [" + String.join(" ", command) + "] (" + action + ")";
    }

    private static SnapshotDeclinedException declined(String message) {
        return new SnapshotDeclinedException(CheckpointFailureReason.CHECKPOINT_DECLINED, message);
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
