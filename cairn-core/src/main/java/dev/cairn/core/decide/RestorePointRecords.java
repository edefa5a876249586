package dev.cairn.core.decide;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.SnapshotKinds;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.core.state.Retention;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * What a decision sends to {@code <prefix>completed} when it gives its job a new restore point (a completed
 * checkpoint, the savepoint of a stop-with-savepoint, a point a user restored the job from; the last of them when it
 * made several). In: the decision's events, the state before and after them, the settings. Out, in sending order:
 * the job's retained checkpoints, as many of the newest as fit in one record (the newest always does: its completion
 * was measured with the journal's records); the restore point's subtask states in {@link RestoreParts}, which fit by
 * their number of states; and a tombstone for every part of the previous restore point the new one does not
 * overwrite. A sidecar reads them to know what to restore. A decision that removes the job replaces them all
 * ({@link #ofRemoval}).
 */
final class RestorePointRecords {

    private RestorePointRecords() {
    }

    /** The records of the decision's new restore point, or of its removal of the job; none when it made neither. */
    static List<CompletedTopicRecord> of(List<SpecificRecord> events, CoordinatorState before,
            CoordinatorState after, CoordinatorSettings settings) {
        for (SpecificRecord event : events) {
            if (event instanceof JobRemoved removed) {
                return ofRemoval(removed, events, before, settings);
            }
        }
        CheckpointCompleted point = newRestorePoint(events, before, after);
        if (point == null) {
            return List.of();
        }
        String jobId = point.getJobId();
        List<CompletedTopicRecord> records = new ArrayList<>();
        after.retained(jobId).ifPresent(retained -> records.add(new CompletedTopicRecord(jobId,
                fitting(retained, settings.maxRecordBytes()))));
        int statesPerPart = RestoreParts.statesPerPart(settings.limits(), settings.maxRecordBytes());
        List<RestorePart> parts = parts(point, before, after, statesPerPart);
        parts.forEach(part -> records.add(new CompletedTopicRecord(CairnTopics.restorePartKey(jobId,
                part.getPart()), part)));
        int previousParts = Retention.newest(before.retained(jobId))
                .map(previous -> previousPartCount(previous, events, before, statesPerPart)).orElse(0);
        for (int part = parts.size(); part < previousParts; part++) {
            records.add(new CompletedTopicRecord(CairnTopics.restorePartKey(jobId, part), null));
        }
        return records;
    }

    /**
     * What the removal of a job leaves on the completed topic, so that nothing there makes a job registered again
     * under the id restore the removed job's state: under the job id, retained checkpoints with none in them whose
     * {@code chosenAfterId} is the newest id the removed job could have used (a starting sidecar restores nothing and
     * ignores the removed job's completions it sees on {@code cairn.control}); and a tombstone for every part of the
     * removed job's restore point. The value under the job id stays until the job registered again completes a
     * checkpoint, whose ids are all above it.
     */
    static List<CompletedTopicRecord> ofRemoval(JobRemoved removed, List<SpecificRecord> events,
            CoordinatorState before, CoordinatorSettings settings) {
        String jobId = removed.getJobId();
        List<CompletedTopicRecord> records = new ArrayList<>();
        records.add(new CompletedTopicRecord(jobId, RetainedCheckpoints.newBuilder().setJobId(jobId)
                .setCheckpoints(List.of()).setChosenAfterId(removed.getNextCheckpointId() - 1).build()));
        int statesPerPart = RestoreParts.statesPerPart(settings.limits(), settings.maxRecordBytes());
        int previousParts = Retention.newest(before.retained(jobId))
                .map(previous -> previousPartCount(previous, events, before, statesPerPart)).orElse(0);
        for (int part = 0; part < previousParts; part++) {
            records.add(new CompletedTopicRecord(CairnTopics.restorePartKey(jobId, part), null));
        }
        return records;
    }

    /**
     * How many parts the previous restore point was published in: one per subtask state, unless it was handed to
     * another parallelism (its recorded parallelism differs from the spec, or the decision changes the spec, which
     * may have handed it out anew), when its assignment is computed again.
     */
    private static int previousPartCount(CheckpointCompleted previous, List<SpecificRecord> events,
            CoordinatorState before, int statesPerPart) {
        boolean respecified = events.stream().anyMatch(JobSpec.class::isInstance);
        boolean rescaled = before.spec(previous.getJobId()).map(spec -> !new HashSet<>(StateAssignment
                .parallelismOf(spec)).containsAll(previous.getParallelism())).orElse(false);
        if (respecified || rescaled) {
            return parts(previous, before, before, statesPerPart).size();
        }
        return RestoreParts.partCount(Math.max(0, previous.getSubtaskCount()), statesPerPart);
    }

    /**
     * The restore point's states cut into parts, handed to the job's tasks as its spec now has them
     * ({@link StateAssignment}); the states are read in the state before the decision, where the vertices they were
     * taken with still are.
     */
    private static List<RestorePart> parts(CheckpointCompleted point, CoordinatorState before,
            CoordinatorState after, int statesPerPart) {
        String jobId = point.getJobId();
        List<CheckpointAcknowledged> states = subtaskStates(point, before, after);
        Optional<JobSpec> spec = after.spec(jobId);
        if (spec.isEmpty()) {
            return RestoreParts.split(jobId, point.getCheckpointId(), states, statesPerPart);
        }
        StateAssignment.Assigned assigned = StateAssignment.assign(point, states, spec.get());
        return RestoreParts.split(jobId, point.getCheckpointId(), assigned.states(), assigned.tasks(),
                statesPerPart);
    }

    /**
     * The job's restore point as the events leave it, if they make one or change the job's spec: a completed
     * checkpoint, the savepoint of a stop-with-savepoint, a point a user restored the job from (the last of them when
     * they make several), or, for a spec that changes a task's parallelism, the newest retained point again, handed
     * to the new parallelism when its states can be (else its subtasks restore their own states, as before).
     */
    static CheckpointCompleted newRestorePoint(List<SpecificRecord> events, CoordinatorState before,
            CoordinatorState after) {
        CheckpointCompleted point = newRestorePoint(events);
        if (point != null) {
            return point;
        }
        for (SpecificRecord event : events) {
            if (event instanceof JobSpec spec && !before.spec(spec.getJobId()).map(StateAssignment::parallelismOf)
                    .equals(Optional.of(StateAssignment.parallelismOf(spec)))) {
                return Retention.newest(after.retained(spec.getJobId()))
                        .filter(newest -> StateAssignment.problem(newest, subtaskStates(newest, before, after), spec)
                                .isEmpty())
                        .orElse(null);
            }
        }
        return null;
    }

    /**
     * The job's new restore point, if the events make one: a completed checkpoint, the savepoint of a
     * stop-with-savepoint, or a point a user restored the job from; the last of them when they make several.
     */
    static CheckpointCompleted newRestorePoint(List<SpecificRecord> events) {
        CheckpointCompleted point = null;
        for (SpecificRecord event : events) {
            if (event instanceof CheckpointCompleted c && SnapshotKinds.isRestorePoint(c)) {
                point = c;
            } else if (event instanceof JobRestored r) {
                point = r.getRestorePoint();
            } else if (event instanceof RestorePointRejected r) {
                point = r.getFallback();
            }
        }
        return point;
    }

    /**
     * The subtask states of a restore point: its accepted acks, and, when it also counts subtasks that had finished
     * before it was triggered, their final states (one scan of the job's finished subtasks), among the subtasks of
     * the vertices it was taken with (those before the decision, which may change the spec).
     */
    private static List<CheckpointAcknowledged> subtaskStates(CheckpointCompleted point, CoordinatorState before,
            CoordinatorState after) {
        String jobId = point.getJobId();
        return RestorePoints.statesOf(point, after.acks(jobId, point.getCheckpointId()), () -> after.finished(jobId),
                taskId -> before.vertex(jobId, taskId).or(() -> after.vertex(jobId, taskId)));
    }

    /** The retained checkpoints as they fit in one record of at most {@code maxRecordBytes}: the newest that do. */
    static RetainedCheckpoints fitting(RetainedCheckpoints retained, int maxRecordBytes) {
        List<CheckpointCompleted> checkpoints = retained.getCheckpoints();
        int from = 0;
        while (from < checkpoints.size() - 1
                && encodedSize(withCheckpoints(retained, checkpoints.subList(from, checkpoints.size())))
                > maxRecordBytes) {
            from++;
        }
        return from == 0 ? retained : withCheckpoints(retained, List.copyOf(checkpoints.subList(from,
                checkpoints.size())));
    }

    private static RetainedCheckpoints withCheckpoints(RetainedCheckpoints retained, List<CheckpointCompleted> kept) {
        return RetainedCheckpoints.newBuilder(retained).setCheckpoints(kept).build();
    }

    /** The size of the record as the coordinator sends it: Avro's single-object encoding of the current schema. */
    private static int encodedSize(RetainedCheckpoints retained) {
        try {
            return retained.toByteBuffer().remaining();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure the retained checkpoints of " + retained.getJobId(), e);
        }
    }
}
