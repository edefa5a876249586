package dev.cairn.core.audit;

import dev.cairn.coordinator.state.CheckpointCounts;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.audit.Violation.Rule;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.EventFields;
import dev.cairn.core.events.EventKind;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * Checks the journal's invariants while replaying it (pure: it is handed the records in journal order, per
 * partition, and keeps no reference to Kafka). Each record is checked against what the records before it
 * established, then folded with the coordinator's own {@link CheckpointEvolver}, so {@link #state()} is the
 * replayed state at the end. The invariants are those of {@link Rule}; each violation names the record
 * (partition and offset) that breaks it. At {@link #finish()} the job's counts as the evolver rebuilt them are
 * compared with the counts the events add up to (triggers, completions, aborts and failed triggers, pending
 * checkpoints). A job's removal starts its counts again, as a job registered again under its id starts them, while
 * its checkpoint ids must still increase: a job registered again never reuses an id of the removed one.
 */
public final class JournalChecker {

    /** What the events said so far of one open checkpoint. */
    private static final class Open {
        boolean tasksTriggered;
        int acksExpected;
        int finishedSubtasks;
        long finishedStateBytes;
        final Set<String> acked = new HashSet<>();
        long ackedBytes;
    }

    /** What the events said so far of one job. */
    private static final class JobTrack {
        int partition = -1;
        long lastOffset;
        long lastStarted = Long.MIN_VALUE;
        final Map<Long, Open> open = new HashMap<>();
        final Set<Long> ended = new HashSet<>();
        long started;
        long completed;
        long failed;
    }

    private final CheckpointEvolver evolver;
    private final CoordinatorState state = CoordinatorState.inMemory();
    private final Map<String, JobTrack> jobs = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long records;

    /** @param settings the settings the coordinator ran with (they bound its history) */
    public JournalChecker(CoordinatorSettings settings) {
        this.evolver = new CheckpointEvolver(settings);
    }

    /** Checks one record, then applies its event. */
    public void accept(JournalEntry entry) {
        records++;
        if (!entry.decoded()) {
            violations.add(new Violation(entry.partition(), entry.offset(), entry.key(), Rule.UNDECODABLE,
                    "record does not decode: " + entry.decodeError()));
            return;
        }
        SpecificRecord event = entry.event();
        String jobId = EventFields.jobId(event);
        JobTrack job = jobs.computeIfAbsent(jobId, id -> new JobTrack());
        if (!jobId.equals(entry.key())) {
            violate(entry, jobId, Rule.KEY, EventFields.type(event) + " of job " + jobId + " is keyed "
                    + (entry.key() == null ? "by no key" : "'" + entry.key() + "'"));
        }
        if (job.partition >= 0 && job.partition != entry.partition()) {
            violate(entry, jobId, Rule.PARTITION, "job " + jobId + " has records in partitions " + job.partition
                    + " and " + entry.partition());
        }
        job.partition = entry.partition();
        job.lastOffset = entry.offset();
        check(entry, jobId, job, event);
        evolver.evolve(state, event);
    }

    private void check(JournalEntry entry, String jobId, JobTrack job, SpecificRecord event) {
        switch (EventKind.of(event)) {
            case PARTICIPANTS_TRIGGERED -> start(entry, jobId, job, ((ParticipantsTriggered) event).getCheckpointId());
            case CHECKPOINT_TRIGGERED -> triggered(entry, jobId, job, (CheckpointTriggered) event);
            case CHECKPOINT_ACKNOWLEDGED -> acked(entry, jobId, job, (CheckpointAcknowledged) event);
            case PARTICIPANT_ACKNOWLEDGED -> acceptedAck(entry, jobId, job,
                    ((ParticipantAcknowledged) event).getCheckpointId(),
                    "ack of participant " + ((ParticipantAcknowledged) event).getParticipant());
            case CHECKPOINT_COMPLETED -> completed(entry, jobId, job, (CheckpointCompleted) event);
            case CHECKPOINT_ABORTED -> aborted(entry, jobId, job, (CheckpointAborted) event);
            case TRIGGER_FAILED -> job.failed++;
            case CHECKPOINT_FAILURE_COUNTED -> failureCounted(entry, jobId, (CheckpointFailureCounted) event);
            case STATE_DISCARDED -> DiscardCheck.check((StateDiscarded) event, state)
                    .ifPresent(problem -> violate(entry, jobId, Rule.DISCARDED_WHILE_KEPT, problem));
            case JOB_REMOVED -> removed(entry, jobId, job);
            default -> {
                // the other kinds are checked by no rule
            }
        }
    }

    private void triggered(JournalEntry entry, String jobId, JobTrack job, CheckpointTriggered e) {
        Open open = job.open.get(e.getCheckpointId());
        if (open == null || open.tasksTriggered) {
            open = start(entry, jobId, job, e.getCheckpointId());
        }
        open.tasksTriggered = true;
        open.acksExpected = e.getAcksExpected();
        open.finishedSubtasks = e.getFinishedSubtasks();
        open.finishedStateBytes = e.getFinishedStateBytes();
    }

    private void acked(JournalEntry entry, String jobId, JobTrack job, CheckpointAcknowledged e) {
        Open open = acceptedAck(entry, jobId, job, e.getCheckpointId(), "ack of task " + e.getTaskId()
                + " subtask " + e.getSubtaskIndex() + " (attempt " + e.getAttemptId() + ")");
        if (open != null && !open.acked.add(e.getTaskId() + '\u0000' + e.getSubtaskIndex())) {
            violate(entry, jobId, Rule.DUPLICATE_ACK, "checkpoint " + e.getCheckpointId() + " accepted a second ack"
                    + " of task " + e.getTaskId() + " subtask " + e.getSubtaskIndex());
        } else if (open != null) {
            open.ackedBytes += e.getStateHandle().getSizeBytes();
        }
    }

    private void completed(JournalEntry entry, String jobId, JobTrack job, CheckpointCompleted e) {
        Open open = end(entry, jobId, job, e.getCheckpointId(), "completed");
        job.completed++;
        if (open != null) {
            checkCompletion(entry, jobId, open, e);
        }
    }

    private void aborted(JournalEntry entry, String jobId, JobTrack job, CheckpointAborted e) {
        end(entry, jobId, job, e.getCheckpointId(), "aborted");
        job.failed++;
        long latest = state.job(jobId).map(JobState::getLatestCompletedId).orElse(-1L);
        if (e.getLatestCompletedId() != latest) {
            violate(entry, jobId, Rule.COUNTERS, "abort of checkpoint " + e.getCheckpointId()
                    + " names latest completed checkpoint " + e.getLatestCompletedId() + ", the journal's is "
                    + latest);
        }
    }

    /** The job's counts start again; its ids go on, and a checkpoint it left open is a violation. */
    private void removed(JournalEntry entry, String jobId, JobTrack job) {
        if (!job.open.isEmpty()) {
            violate(entry, jobId, Rule.COUNTERS, "job " + jobId + " was removed with checkpoints "
                    + new TreeSet<>(job.open.keySet()) + " open");
        }
        job.open.clear();
        job.started = 0;
        job.completed = 0;
        job.failed = 0;
    }

    private void failureCounted(JournalEntry entry, String jobId, CheckpointFailureCounted e) {
        int before = state.job(jobId).map(JobState::getConsecutiveFailures).orElse(0);
        if (e.getConsecutiveFailures() != before + 1) {
            violate(entry, jobId, Rule.COUNTERS, "failure of checkpoint " + e.getCheckpointId() + " counted "
                    + e.getConsecutiveFailures() + " consecutive failures after " + before);
        }
    }

    private Open start(JournalEntry entry, String jobId, JobTrack job, long id) {
        if (id <= job.lastStarted) {
            violate(entry, jobId, Rule.ID_ORDER, "checkpoint " + id + " triggered after checkpoint " + job.lastStarted);
        }
        job.lastStarted = Math.max(job.lastStarted, id);
        job.started++;
        Open open = new Open();
        job.open.put(id, open);
        return open;
    }

    /** The open checkpoint an accepted ack belongs to, {@code null} (and a violation) when there is none. */
    private Open acceptedAck(JournalEntry entry, String jobId, JobTrack job, long id, String what) {
        Open open = job.open.get(id);
        if (job.ended.contains(id)) {
            violate(entry, jobId, Rule.ACK_AFTER_END, "checkpoint " + id + " accepted an " + what + " after it ended");
        } else if (open == null) {
            violate(entry, jobId, Rule.ACK_NOT_PENDING, "checkpoint " + id + " accepted an " + what
                    + " but was never triggered");
        } else if (!open.tasksTriggered && what.startsWith("ack of task")) {
            violate(entry, jobId, Rule.ACK_NOT_PENDING, "checkpoint " + id + " accepted an " + what
                    + " before its tasks were triggered");
        }
        return open;
    }

    private Open end(JournalEntry entry, String jobId, JobTrack job, long id, String how) {
        if (job.ended.contains(id)) {
            violate(entry, jobId, Rule.ENDED_TWICE, "checkpoint " + id + " " + how + " after it had ended");
            return null;
        }
        Open open = job.open.remove(id);
        if (open == null) {
            violate(entry, jobId, Rule.END_WITHOUT_TRIGGER,
                    "checkpoint " + id + " " + how + " but was never triggered");
        }
        job.ended.add(id);
        return open;
    }

    private void checkCompletion(JournalEntry entry, String jobId, Open open, CheckpointCompleted e) {
        long id = e.getCheckpointId();
        if (!open.tasksTriggered) {
            violate(entry, jobId, Rule.EARLY_COMPLETION,
                    "checkpoint " + id + " completed before its tasks were triggered");
        } else if (open.acked.size() < open.acksExpected) {
            violate(entry, jobId, Rule.EARLY_COMPLETION, "checkpoint " + id + " completed with " + open.acked.size()
                    + " of its " + open.acksExpected + " required acks");
        }
        if (e.getSubtaskCount() >= 0 && e.getSubtaskCount() != open.acked.size() + open.finishedSubtasks) {
            violate(entry, jobId, Rule.COUNTERS, "completion of checkpoint " + id + " counts " + e.getSubtaskCount()
                    + " subtask states, the journal " + open.acked.size() + " accepted acks and "
                    + open.finishedSubtasks + " finished subtasks");
        }
        if (e.getSubtaskCount() >= 0 && e.getTotalSizeBytes() != open.ackedBytes + open.finishedStateBytes) {
            violate(entry, jobId, Rule.COUNTERS, "completion of checkpoint " + id + " states " + e.getTotalSizeBytes()
                    + " bytes, its accepted acks and finished subtasks hold "
                    + (open.ackedBytes + open.finishedStateBytes));
        }
    }

    /**
     * Ends the check: compares every job's replayed counts and pending checkpoints with what its events add up to.
     *
     * @return every violation, in the order found (per job, the final comparison comes last)
     */
    public List<Violation> finish() {
        for (String jobId : new TreeSet<>(jobs.keySet())) {
            Optional<JobState> replayed = state.job(jobId);
            if (replayed.isEmpty()) {
                continue;
            }
            JobTrack job = jobs.get(jobId);
            CheckpointCounts c = replayed.get().getCounts();
            compare(jobId, job, "triggered", c.getTriggered(), job.started);
            compare(jobId, job, "completed", c.getCompleted(), job.completed);
            compare(jobId, job, "failed", c.getFailed(), job.failed);
            compare(jobId, job, "in_progress", c.getInProgress(), job.open.size());
            Set<Long> pending = new TreeSet<>();
            replayed.get().getPending().stream().map(PendingCheckpoint::getCheckpointId).forEach(pending::add);
            if (!pending.equals(new TreeSet<>(job.open.keySet()))) {
                violations.add(new Violation(job.partition, job.lastOffset, jobId, Rule.COUNTERS, "job " + jobId
                        + " has pending checkpoints " + pending + ", its events leave "
                        + new TreeSet<>(job.open.keySet()) + " open"));
            }
        }
        return List.copyOf(violations);
    }

    private void compare(String jobId, JobTrack job, String count, long replayed, long fromEvents) {
        if (replayed != fromEvents) {
            violations.add(new Violation(job.partition, job.lastOffset, jobId, Rule.COUNTERS, "job " + jobId
                    + ": counts." + count + " replayed=" + replayed + ", events=" + fromEvents));
        }
    }

    private void violate(JournalEntry entry, String jobId, Rule rule, String message) {
        violations.add(new Violation(entry.partition(), entry.offset(), jobId, rule, message));
    }

    /** The state the records so far fold into. */
    public CoordinatorState state() {
        return state;
    }

    /** How many records were checked. */
    public long records() {
        return records;
    }
}
