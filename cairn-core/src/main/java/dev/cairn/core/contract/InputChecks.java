package dev.cairn.core.contract;

import dev.cairn.core.events.Command;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Checks a command's client-controlled fields against {@link InputLimits} before the decider looks at
 * it: ids, locations and messages within their lengths, subtask indexes within the max parallelism, sizes
 * not negative. Trigger requests are checked by {@link TriggerRequests#boundsProblems}, job specs by
 * {@link JobSpecs#validate(dev.cairn.events.JobSpec, InputLimits)},
 * which the decider calls with the registration.
 */
public final class InputChecks {

    private InputChecks() {
    }

    /** The first problem of {@code command}, or empty when every field is within its bounds. */
    public static Optional<String> problem(Command command, InputLimits limits) {
        String[] problems;
        if (command instanceof Command.RequestTrigger c) {
            problems = trigger(c.event(), limits);
        } else if (command instanceof Command.StartTask c) {
            problems = started(c.event(), limits);
        } else if (command instanceof Command.Acknowledge c) {
            return Optional.ofNullable(ack(c.event(), limits));
        } else if (command instanceof Command.Decline c) {
            problems = decline(c.event(), limits);
        } else if (command instanceof Command.ChangeJobStatus c) {
            problems = status(c.event(), limits);
        } else if (command instanceof Command.FinishTask c) {
            problems = finished(c.event(), limits);
        } else {
            problems = otherProblems(command, limits);
        }
        for (String problem : problems) {
            if (problem != null) {
                return Optional.of(problem);
            }
        }
        return Optional.empty();
    }

    /** The checks of the participants' messages, the restore requests, the rescale, the removal and the rest. */
    private static String[] otherProblems(Command command, InputLimits limits) {
        String[] problems;
        if (command instanceof Command.AcknowledgeParticipant c) {
            problems = of(limits.checkId("job id", c.event().getJobId()),
                    limits.checkId("participant", c.event().getParticipant()),
                    handle(c.event().getState(), limits));
        } else if (command instanceof Command.DeclineParticipant c) {
            problems = of(limits.checkId("job id", c.event().getJobId()),
                    limits.checkId("participant", c.event().getParticipant()),
                    limits.checkMessage("decline message", c.event().getMessage()));
        } else if (command instanceof Command.Restore c) {
            problems = restore(c.event().getJobId(), c.event().getRequestId(), c.event().getRequester(),
                    c.event().getSavepointPath(), c.event().getCheckpointId(), limits);
        } else if (command instanceof Command.Dispose c) {
            problems = restore(c.event().getJobId(), c.event().getRequestId(), c.event().getRequester(),
                    c.event().getSavepointPath(), c.event().getCheckpointId(), limits);
        } else if (command instanceof Command.Rescale c) {
            problems = rescale(c.event(), limits);
        } else if (command instanceof Command.Remove c) {
            problems = of(limits.checkId("job id", c.event().getJobId()),
                    limits.checkId("request id", c.event().getRequestId()),
                    limits.checkId("requester", c.event().getRequester()));
        } else if (command instanceof Command.FailRestore c) {
            problems = of(limits.checkId("job id", c.event().getJobId()),
                    limits.checkId("task id", c.event().getTaskId()),
                    limits.checkSubtaskIndex(c.event().getSubtaskIndex()),
                    limits.checkId("attempt id", c.event().getAttemptId()),
                    limits.checkMessage("restore failure message", c.event().getMessage()));
        } else if (command instanceof Command.RegisterJob) {
            problems = of();
        } else {
            problems = of(limits.checkId("job id", command.jobId()));
        }
        return problems;
    }

    /** The checks of one command, each a problem or {@code null}. */
    private static String[] of(String... problems) {
        return problems;
    }

    private static String[] trigger(TriggerRequest request, InputLimits limits) {
        return TriggerRequests.boundsProblems(request, limits).stream().map(SpecProblem::toString)
                .toArray(String[]::new);
    }

    /** A restore or a disposal: ids and the path within bounds, an id not negative. */
    private static String[] restore(String jobId, String requestId, String requester, String path, Long checkpointId,
            InputLimits limits) {
        return of(
                limits.checkId("job id", jobId),
                limits.checkId("request id", requestId),
                limits.checkId("requester", requester),
                path == null ? null : limits.checkLocation("savepoint path", path),
                checkpointId == null || checkpointId >= 0 ? null
                        : "checkpoint id must be >= 0 but is " + checkpointId);
    }

    /** A rescale: its ids, a savepoint target as a stop's, and every task's id (the tasks' bounds are the job's). */
    private static String[] rescale(RescaleJob rescale, InputLimits limits) {
        List<String> problems = new ArrayList<>(Arrays.asList(
                limits.checkId("job id", rescale.getJobId()),
                limits.checkId("request id", rescale.getRequestId()),
                limits.checkId("requester", rescale.getRequester())));
        CharSequence target = rescale.getTargetLocation();
        if (target != null) {
            String problem = target.toString().isBlank() ? "is empty (leave it out for the job's storage base"
                    + " location)" : limits.targetProblem(target);
            problems.add(problem == null ? null : "targetLocation " + problem);
        }
        if (rescale.getTasks().size() > limits.maxVertices()) {
            problems.add("a rescale names " + rescale.getTasks().size() + " tasks, more than the limit of "
                    + limits.maxVertices());
        } else {
            rescale.getTasks().forEach(task -> problems.add(limits.checkId("task id", task.getTaskId())));
        }
        return problems.toArray(String[]::new);
    }

    private static String[] status(JobStatusChange change, InputLimits limits) {
        return of(
                limits.checkId("job id", change.getJobId()),
                change.getStatus() == null ? "job status is missing" : null);
    }

    private static String[] started(TaskStarted started, InputLimits limits) {
        return of(
                limits.checkId("job id", started.getJobId()),
                limits.checkId("task id", started.getTaskId()),
                limits.checkSubtaskIndex(started.getSubtaskIndex()),
                limits.checkId("attempt id", started.getAttemptId()),
                started.getHost() == null ? null : limits.checkId("host", started.getHost()));
    }

    /** The first problem of an ack, or {@code null}: checked one field after the other, with no array per ack. */
    private static String ack(CheckpointAcknowledged ack, InputLimits limits) {
        String problem = limits.checkId("job id", ack.getJobId());
        problem = problem != null ? problem : limits.checkId("task id", ack.getTaskId());
        problem = problem != null ? problem : limits.checkSubtaskIndex(ack.getSubtaskIndex());
        problem = problem != null ? problem : limits.checkId("attempt id", ack.getAttemptId());
        StateHandle handle = ack.getStateHandle();
        if (problem != null || handle == null) {
            return problem != null ? problem : "state handle is missing";
        }
        return handle(handle, limits);
    }

    private static String[] finished(TaskFinished finished, InputLimits limits) {
        return of(
                limits.checkId("job id", finished.getJobId()),
                limits.checkId("task id", finished.getTaskId()),
                limits.checkSubtaskIndex(finished.getSubtaskIndex()),
                limits.checkId("attempt id", finished.getAttemptId()),
                handle(finished.getFinalState(), limits));
    }

    /**
     * An optional state handle: its location within bounds and its size not negative, and so for each shared object
     * it names, whose location must differ from the handle's own (a shared object is counted apart from the state).
     */
    private static String handle(StateHandle handle, InputLimits limits) {
        if (handle == null) {
            return null;
        }
        String location = limits.checkLocation("state handle location", handle.getLocation());
        String problem = location != null ? location
                : handle.getSizeBytes() < 0 ? "state size must be >= 0 but is " + handle.getSizeBytes() : null;
        KeyGroupRange groups = handle.getKeyGroups();
        if (problem == null && groups != null && (groups.getStartKeyGroup() < 0
                || groups.getEndKeyGroup() < groups.getStartKeyGroup()
                || groups.getEndKeyGroup() >= KeyGroupRanges.UPPER_BOUND_MAX_PARALLELISM)) {
            problem = "state handle keyGroups " + KeyGroupRanges.describe(groups) + " is no range of key groups"
                    + " (0 <= start <= end < " + KeyGroupRanges.UPPER_BOUND_MAX_PARALLELISM + ")";
        }
        for (int i = 0; problem == null && i < handle.getShared().size(); i++) {
            SharedState shared = handle.getShared().get(i);
            problem = limits.checkLocation("shared state location", shared.getLocation());
            if (problem == null && shared.getSizeBytes() < 0) {
                problem = "shared state size must be >= 0 but is " + shared.getSizeBytes();
            } else if (problem == null && shared.getLocation().equals(handle.getLocation())) {
                problem = "shared state " + shared.getLocation() + " is the state handle's own location";
            }
        }
        return problem;
    }

    private static String[] decline(CheckpointDeclined decline, InputLimits limits) {
        return of(
                limits.checkId("job id", decline.getJobId()),
                limits.checkId("task id", decline.getTaskId()),
                limits.checkSubtaskIndex(decline.getSubtaskIndex()),
                limits.checkId("attempt id", decline.getAttemptId()),
                limits.checkMessage("decline message", decline.getMessage()));
    }
}
