package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.KeptStates;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.topics.CairnTopics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Answers of the job's coordinator-side participants (Flink: master hooks and operator coordinators, which
 * snapshot before the tasks are triggered). A checkpoint of a job with participants starts with
 * {@code ParticipantsTriggered}; each named participant answers once; when the last one has acknowledged, a second
 * {@code ParticipantsTriggered} asks the master hooks (Flink snapshots operator coordinators first and master hooks
 * after them), and when those have acknowledged too, the tasks are triggered. A participant's decline aborts the
 * checkpoint as a trigger failure ({@link #reasonOf}): a job-level failure that is not counted, as Flink treats a
 * master hook's or coordinator's failure. A participant that does not answer in time lets the checkpoint expire.
 * Answers for checkpoints that are not waiting for that participant are rejected.
 */
public final class Participants {

    private Participants() {
    }

    /** Who a checkpoint of the job asks first: its participants, or its master hooks when it has none. */
    static List<String> askedFirst(JobSpec spec) {
        return spec.getParticipants().isEmpty() ? spec.getMasterHooks() : spec.getParticipants();
    }

    /** The job's master hooks that the pending checkpoint has not asked yet, in spec order. */
    static List<String> notAskedYet(JobSpec spec, PendingCheckpoint pending) {
        List<String> hooks = new ArrayList<>();
        for (String hook : spec.getMasterHooks()) {
            if (!pending.getParticipants().contains(hook)) {
                hooks.add(hook);
            }
        }
        return hooks;
    }

    /**
     * Records a participant's state; the last answer triggers the tasks. An answer that is not accepted and carries
     * state is discarded and its handle reported for clean-up, as a task's ack is, addressed to the participant
     * ({@link CairnTopics#PARTICIPANT_SUBTASK_INDEX}).
     */
    static void acknowledge(Decision d, Command command, ParticipantAcknowledged ack) {
        String jobId = ack.getJobId();
        Optional<String> notWaiting = whyNotWaiting(d.job(jobId), ack.getCheckpointId(), ack.getParticipant());
        if (notWaiting.isPresent()) {
            if (ack.getState() == null) {
                d.reject(jobId, command, notWaiting.get());
            } else {
                discard(d, ack, notWaiting.get());
            }
            return;
        }
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(d.job(jobId), ack.getCheckpointId());
        if (answered(pending.get(), ack.getParticipant())) {
            d.reject(jobId, command, "participant " + ack.getParticipant() + " answered checkpoint "
                    + ack.getCheckpointId() + " of job " + jobId + " already: a repeated answer changes nothing");
            return;
        }
        d.emit(ack);
        PendingCheckpoint now = PendingCheckpoints.find(d.job(jobId), ack.getCheckpointId()).orElseThrow();
        if (PendingCheckpoints.tasksTriggered(now)) {
            Triggers.participantsAnswered(d, jobId, now);
            // triggering the tasks may end the checkpoint at once (nothing to wait for, or a task not running)
            CheckpointRequestDecider.run(d, jobId);
        }
    }

    static void decline(Decision d, Command command, ParticipantDeclined decline) {
        String jobId = decline.getJobId();
        Optional<PendingCheckpoint> pending =
                waiting(d, command, jobId, decline.getCheckpointId(), decline.getParticipant());
        if (pending.isEmpty()) {
            return;
        }
        if (answered(pending.get(), decline.getParticipant())) {
            d.reject(jobId, command, "participant " + decline.getParticipant() + " already acknowledged checkpoint "
                    + decline.getCheckpointId() + " of job " + jobId);
            return;
        }
        d.emit(decline);
        Aborts.abort(d, jobId, pending.get(), reasonOf(decline),
                "Participant " + decline.getParticipant() + " declined checkpoint "
                + decline.getCheckpointId() + " of job " + jobId + ": " + decline.getMessage());
        CheckpointRequestDecider.run(d, jobId);
    }

    /**
     * Why the checkpoint aborts when a participant fails (Flink: CheckpointCoordinator#onTriggerFailure): a
     * trigger failure, TRIGGER_CHECKPOINT_FAILURE, which the failure manager does not count, unless the participant
     * names a reason of its own (Flink: a CheckpointException thrown by a hook or coordinator keeps its reason).
     * CHECKPOINT_DECLINED, the schema's default that sidecars send for any hook failure, names none.
     */
    static CheckpointFailureReason reasonOf(ParticipantDeclined decline) {
        CheckpointFailureReason given = decline.getReason();
        return given == null || given == CheckpointFailureReason.CHECKPOINT_DECLINED
                ? CheckpointFailureReason.TRIGGER_CHECKPOINT_FAILURE : given;
    }

    /** The pending checkpoint that asked this participant and has not triggered its tasks yet, else a rejection. */
    private static Optional<PendingCheckpoint> waiting(Decision d, Command command, String jobId, long checkpointId,
            String participant) {
        Optional<String> notWaiting = whyNotWaiting(d.job(jobId), checkpointId, participant);
        if (notWaiting.isPresent()) {
            d.reject(jobId, command, notWaiting.get());
            return Optional.empty();
        }
        return PendingCheckpoints.find(d.job(jobId), checkpointId);
    }

    /** Why the checkpoint does not wait for this participant's answer, or empty when it does. */
    private static Optional<String> whyNotWaiting(JobState job, long checkpointId, String participant) {
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job, checkpointId);
        if (pending.isEmpty() || PendingCheckpoints.tasksTriggered(pending.get())) {
            return Optional.of("checkpoint " + checkpointId + " of job " + job.getJobId()
                    + " is not waiting for its participants");
        }
        if (!pending.get().getParticipants().contains(participant)) {
            return Optional.of(participant + " is not a participant of checkpoint " + checkpointId + " of job "
                    + job.getJobId());
        }
        return Optional.empty();
    }

    /**
     * The {@code AckDiscarded} of a participant's state: a participant has no subtask or attempt, so the event names
     * it as task id and attempt id with subtask index {@value CairnTopics#PARTICIPANT_SUBTASK_INDEX}; the participant's
     * sidecar looks for exactly that.
     */
    private static void discard(Decision d, ParticipantAcknowledged ack, String why) {
        JobState job = d.job(ack.getJobId());
        long id = ack.getCheckpointId();
        AckDiscardStatus status = job.getRecentlyEndedIds().contains(id) ? AckDiscardStatus.LATE
                : PendingCheckpoints.find(job, id).isPresent() ? AckDiscardStatus.UNKNOWN
                : AckDiscardStatus.DISCARDED;
        Optional<String> kept = ack.getState() == null ? Optional.<String>empty()
                : KeptStates.ofRemovedJob(d.state, ack.getJobId(), id)
                        .or(() -> KeptStates.whyKept(d.state, job, ack.getParticipant(), ack.getState()));
        d.emit(AckDiscarded.newBuilder()
                .setJobId(ack.getJobId())
                .setCheckpointId(id)
                .setTaskId(ack.getParticipant())
                .setSubtaskIndex(CairnTopics.PARTICIPANT_SUBTASK_INDEX)
                .setAttemptId(ack.getParticipant())
                .setStatus(kept.isPresent() ? AckDiscardStatus.DUPLICATE : status)
                .setStateHandle(kept.isPresent() ? null : ack.getState())
                .setMessage("Discarded the " + (kept.isPresent() ? "answer" : "state") + " of participant "
                        + ack.getParticipant() + ": " + why + kept.map(k -> "; its state is kept: " + k).orElse(""))
                .setTimestampMs(d.now)
                .build());
    }

    private static boolean answered(PendingCheckpoint pending, String participant) {
        for (ParticipantState state : pending.getParticipantStates()) {
            if (state.getParticipant().equals(participant)) {
                return true;
            }
        }
        return false;
    }
}
