package dev.cairn.core.decide;

import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.FinishedTasks;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.state.TaskVertices;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobStatus;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.Optional;

/**
 * The attempts of each subtask and their order (Flink: the JobMaster numbers execution attempts, and messages of
 * any attempt but the current one are ignored). Cairn has no scheduler to number them, so the attempts of one
 * subtask are ordered by what each {@link TaskStarted} carries: its start time ({@code timestampMs}, set by the
 * sidecar when its attempt starts), then its attempt id, to break ties the same way on every replay. A record is
 * signed with its job's key, so a replayed one keeps its original start and cannot be re-dated.
 *
 * <p>In: a {@link TaskStarted}. Out: the same event when its attempt is new and starts after the current one (it
 * replaces that attempt); nothing for the current attempt announced again; a {@link TaskStartRejected} with the
 * reason and the current attempt's start otherwise. The rejection also goes to {@code cairn.control}, where a
 * live sidecar of the rejected attempt (a restart on a host whose clock is behind) announces itself again with a
 * start after the current one; a replayed record has no live sidecar behind it.
 *
 * <p>In: a {@link TaskFinished} of the running attempt. Out: the same event, once; a {@link CheckpointAcknowledged}
 * with its final state for every pending checkpoint whose tasks were triggered and still wait for it (see
 * {@link FinishedTasks}); the job's FINISHED status when it was the last required subtask; a rejection when the
 * subtask or its attempt is not the running one.
 */
final class TaskAttempts {

    private TaskAttempts() {
    }

    /**
     * Decides a {@link TaskStarted}. A TaskStarted may arrive before its job's spec, or before the spec that adds
     * its task: the two travel on different topics, which Kafka does not order. Such an attempt is kept under its
     * own key all the same and takes effect when a spec that has the subtask arrives (planning reads the attempts
     * then); only a new attempt of a subtask the current spec requires aborts what the old one had not
     * acknowledged.
     */
    static void started(Decision d, TaskStarted started) {
        String jobId = started.getJobId();
        Optional<CurrentAttempt> previous = d.state.currentAttempt(jobId, started.getTaskId(),
                started.getSubtaskIndex());
        if (previous.isPresent() && previous.get().getAttemptId().equals(started.getAttemptId())) {
            d.reject(jobId, new Command.StartTask(started), "attempt " + started.getAttemptId() + " of task "
                    + started.getTaskId() + " subtask " + started.getSubtaskIndex() + " is the running one already: a "
                    + "repeated announcement changes nothing");
            return;
        }
        if (previous.isPresent() && !startsAfter(started, previous.get())) {
            reject(d, started, previous.get());
            return;
        }
        d.emit(started);
        if (previous.isEmpty() || d.state.job(jobId).isEmpty()) {
            return;
        }
        Optional<TaskVertex> vertex = d.state.vertex(jobId, started.getTaskId());
        if (!TaskVertices.hasSubtask(vertex, started.getSubtaskIndex())
                || !TaskVertices.isRequired(vertex.orElseThrow())) {
            return;
        }
        for (PendingCheckpoint pending : new ArrayList<>(d.job(jobId).getPending())) {
            if (d.state.ack(jobId, pending.getCheckpointId(), started.getTaskId(), started.getSubtaskIndex())
                    .isEmpty()) {
                Aborts.abort(d, jobId, pending, CheckpointFailureReason.TASK_FAILURE,
                        "Task " + started.getTaskId() + " subtask " + started.getSubtaskIndex() + " of job " + jobId
                                + " restarted (attempt " + started.getAttemptId() + " replaces "
                                + previous.get().getAttemptId() + ") before acknowledging checkpoint "
                                + pending.getCheckpointId());
            }
        }
        CheckpointRequestDecider.run(d, jobId);
    }

    /**
     * Whether the announced attempt comes after the current one: a later start, or the same start and a greater
     * attempt id (a tie of two distinct attempts is broken the same way wherever it is decided).
     */
    private static boolean startsAfter(TaskStarted started, CurrentAttempt current) {
        int byStart = Long.compare(started.getTimestampMs(), current.getStartedAtMs());
        return byStart > 0 || byStart == 0 && started.getAttemptId().compareTo(current.getAttemptId()) > 0;
    }

    static void finished(Decision d, Command command, TaskFinished finished) {
        String jobId = finished.getJobId();
        Optional<TaskVertex> vertex = d.state.vertex(jobId, finished.getTaskId());
        if (!TaskVertices.hasSubtask(vertex, finished.getSubtaskIndex())) {
            d.reject(jobId, command, "unknown task " + finished.getTaskId() + " subtask " + finished.getSubtaskIndex());
            return;
        }
        Optional<String> current = d.state.attempt(jobId, finished.getTaskId(), finished.getSubtaskIndex());
        if (current.isEmpty() || !current.get().equals(finished.getAttemptId())) {
            d.reject(jobId, command, "attempt " + finished.getAttemptId() + " of task " + finished.getTaskId()
                    + " subtask " + finished.getSubtaskIndex() + " is not the running one ("
                    + current.orElse("none started") + ")");
            return;
        }
        if (d.state.finished(jobId, finished.getTaskId(), finished.getSubtaskIndex()).isPresent()) {
            d.reject(jobId, command, "task " + finished.getTaskId() + " subtask " + finished.getSubtaskIndex()
                    + " finished already (attempt " + finished.getAttemptId() + "): a repeated finish changes nothing");
            return;
        }
        d.emit(finished);
        if (vertex.get().getAcknowledges()) {
            acknowledgePending(d, finished);
        }
        JobState job = d.job(jobId);
        boolean ended = job.getStatus() == JobStatus.FINISHED || job.getStatus() == JobStatus.CANCELED
                || job.getStatus() == JobStatus.FAILED;
        if (!ended && job.getFinishedSubtasks() >= job.getRequiredSubtasks()) {
            JobStatuses.change(d, jobId, JobStatus.FINISHED, 0, "every task of job " + jobId + " finished");
        }
        CheckpointRequestDecider.run(d, jobId);
    }

    /** The final state answers every pending checkpoint whose tasks were triggered and that still waits for it. */
    private static void acknowledgePending(Decision d, TaskFinished finished) {
        String jobId = finished.getJobId();
        for (PendingCheckpoint pending : new ArrayList<>(d.job(jobId).getPending())) {
            boolean stillPending = PendingCheckpoints.find(d.job(jobId), pending.getCheckpointId()).isPresent();
            if (!stillPending || !PendingCheckpoints.tasksTriggered(pending)
                    || d.state.ack(jobId, pending.getCheckpointId(),
                    finished.getTaskId(), finished.getSubtaskIndex()).isPresent()) {
                continue;
            }
            CheckpointAcknowledged ack = CheckpointAcknowledged.newBuilder()
                    .setJobId(jobId)
                    .setCheckpointId(pending.getCheckpointId())
                    .setTaskId(finished.getTaskId())
                    .setSubtaskIndex(finished.getSubtaskIndex())
                    .setAttemptId(finished.getAttemptId())
                    .setStateHandle(FinishedTasks.finalState(finished))
                    .setMetrics(SubtaskMetrics.newBuilder().build())
                    .setTimestampMs(d.now)
                    .build();
            TaskMessages.accept(d, jobId, pending, ack);
        }
    }

    private static void reject(Decision d, TaskStarted started, CurrentAttempt current) {
        boolean sameStart = started.getTimestampMs() == current.getStartedAtMs();
        d.emit(TaskStartRejected.newBuilder()
                .setJobId(started.getJobId())
                .setTaskId(started.getTaskId())
                .setSubtaskIndex(started.getSubtaskIndex())
                .setAttemptId(started.getAttemptId())
                .setStartedAtMs(started.getTimestampMs())
                .setCurrentAttemptId(current.getAttemptId())
                .setCurrentStartedAtMs(current.getStartedAtMs())
                .setReason("attempt " + started.getAttemptId() + " of task " + started.getTaskId() + " subtask "
                        + started.getSubtaskIndex() + " of job " + started.getJobId() + " started at "
                        + started.getTimestampMs() + (sameStart ? ", as did" : ", not after")
                        + " the current attempt " + current.getAttemptId() + " (started at "
                        + current.getStartedAtMs() + ")" + (sameStart ? ", whose attempt id orders after it" : "")
                        + ": a replayed or reordered old announcement, or a restart whose clock is behind; the"
                        + " current attempt stays")
                .setTimestampMs(d.now)
                .build());
    }
}
