package dev.cairn.sidecar.core;

import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import java.util.Optional;

/**
 * When a task attempt announces itself ({@code TaskStarted}) and when again. The coordinator orders the attempts of
 * a subtask by their start (then attempt id) and rejects an announcement that does not start after the current
 * attempt's, telling the sidecars with a {@link TaskStartRejected} on {@code cairn.control}. A live sidecar of the
 * rejected attempt (a restart on a host whose clock is behind the previous attempt's) then announces itself again
 * with a start after the current attempt's, {@code max(now, currentStartedAtMs + 1)}, and so takes over at once.
 * Pure: the time comes in with each call. Not thread-safe.
 */
final class Announcements {

    private final TaskAttempt attempt;
    /** The start time of this attempt's latest announcement. */
    private long announcedAtMs = Long.MIN_VALUE;

    Announcements(TaskAttempt attempt) {
        this.attempt = attempt;
    }

    /** The attempt was announced with this start time; later announcements follow it. */
    void announced(long startedAtMs) {
        announcedAtMs = Math.max(announcedAtMs, startedAtMs);
    }

    /**
     * The announcement to publish again after {@code rejected}, if any: none for a notice of another attempt, or
     * for one whose current attempt started before this attempt's latest announcement (answered already).
     */
    Optional<TaskStarted> onRejected(TaskStartRejected rejected, long nowMs) {
        boolean mine = attempt.jobId().equals(rejected.getJobId()) && attempt.taskId().equals(rejected.getTaskId())
                && attempt.subtaskIndex() == rejected.getSubtaskIndex()
                && attempt.attemptId().equals(rejected.getAttemptId());
        if (!mine || rejected.getCurrentStartedAtMs() < announcedAtMs) {
            return Optional.empty();
        }
        announcedAtMs = Math.max(nowMs, rejected.getCurrentStartedAtMs() + 1);
        return Optional.of(AckEvents.started(attempt, announcedAtMs));
    }
}
