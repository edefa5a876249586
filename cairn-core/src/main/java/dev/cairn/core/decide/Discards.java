package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.SharedStateEntry;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.Retention;
import dev.cairn.core.state.SharedStates;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the state of a checkpoint that stops being kept leaves to delete (Flink: CheckpointsCleaner for subsumed
 * checkpoints, PendingCheckpoint.abort for aborted ones), decided before the event that ends it is emitted and
 * emitted after it as {@link StateDiscarded} parts:
 * <ul>
 *   <li>an aborted checkpoint: the states its subtasks and participants had acknowledged;</li>
 *   <li>a retained checkpoint pushed out by a newer one or by a restore: its states, when the coordinator owns it
 *       ({@link Retention#owned}: its own checkpoints, and a point restored in CLAIM mode); a savepoint, a point
 *       restored in NO_CLAIM mode and a savepoint still kept are left alone;</li>
 *   <li>in both cases, and when a user disposes of a savepoint, the shared objects whose last reference goes with
 *       it ({@link SharedStates}).</li>
 * </ul>
 * A state another kept checkpoint (pending, retained, a kept savepoint) refers to under the same location, or that is
 * a finished subtask's final state, is kept and counted, never listed.
 */
final class Discards {

    /** One checkpoint that stops being kept. */
    private record Ended(long checkpointId, CheckpointType type, boolean ownStates, List<ParticipantState> participants,
            String message) {
    }

    private Discards() {
    }

    /** Before {@code pending} is aborted. */
    static List<StateDiscarded> ofAbort(Decision d, String jobId, PendingCheckpoint pending, String message) {
        JobState job = d.job(jobId);
        Set<Long> kept = keptIds(d.state, job, Optional.empty());
        kept.remove(pending.getCheckpointId());
        return discards(d, jobId, DiscardReason.ABORTED, kept, List.of(new Ended(pending.getCheckpointId(),
                pending.getType(), true, pending.getParticipantStates(), message)));
    }

    /** Before {@code completed} is emitted: the retained entries it pushes out. */
    static List<StateDiscarded> ofCompletion(Decision d, CheckpointCompleted completed, boolean restorePoint) {
        if (!restorePoint) {
            return List.of();
        }
        String jobId = completed.getJobId();
        Optional<RetainedCheckpoints> before = d.state.retained(jobId);
        RetainedCheckpoints after = Retention.retain(before, completed, d.job(jobId).getConfig().getRetained());
        return ofDropped(d, jobId, before, after, "subsumed by " + describe(completed));
    }

    /** Before the job is restored from {@code point}: the retained entries the restore pushes out. */
    static List<StateDiscarded> ofRestore(Decision d, String jobId, CheckpointCompleted point, RestoreMode mode) {
        JobState job = d.job(jobId);
        Optional<RetainedCheckpoints> before = d.state.retained(jobId);
        RetainedCheckpoints after = Retention.restoreFrom(before, point, mode, job.getConfig().getRetained(),
                job.getNextCheckpointId() - 1);
        return ofDropped(d, jobId, before, after, "pushed out of the retained checkpoints by the restore from "
                + describe(point));
    }

    /** Before a user disposes of {@code savepoint}: the shared objects only it still referred to. */
    static List<StateDiscarded> ofDisposal(Decision d, String jobId, CheckpointCompleted savepoint) {
        if (Retention.contains(d.state.retained(jobId), savepoint.getCheckpointId())) {
            return List.of();
        }
        Set<Long> kept = keptIds(d.state, d.job(jobId), Optional.empty());
        kept.remove(savepoint.getCheckpointId());
        return discards(d, jobId, DiscardReason.DISPOSED, kept, List.of(new Ended(savepoint.getCheckpointId(),
                CheckpointType.SAVEPOINT, false, List.of(), "disposed of by a user; its own states are the user's")));
    }

    static void emit(Decision d, List<StateDiscarded> discards) {
        discards.forEach(d::emit);
    }

    private static List<StateDiscarded> ofDropped(Decision d, String jobId, Optional<RetainedCheckpoints> before,
            RetainedCheckpoints after, String why) {
        List<Long> dropped = Retention.dropped(before, after);
        if (dropped.isEmpty()) {
            return List.of();
        }
        Set<Long> savepoints = new HashSet<>();
        d.state.savepoints(jobId).forEach(s -> savepoints.add(s.getCheckpointId()));
        List<Ended> ended = new ArrayList<>();
        for (CheckpointCompleted entry : before.get().getCheckpoints()) {
            if (dropped.contains(entry.getCheckpointId()) && !savepoints.contains(entry.getCheckpointId())) {
                boolean owned = Retention.owned(before.get(), entry);
                ended.add(new Ended(entry.getCheckpointId(), entry.getType(), owned,
                        owned ? entry.getParticipantStates() : List.of(), owned ? why
                        : why + "; restored in NO_CLAIM mode, it belongs to the user, who deletes it"));
            }
        }
        Set<Long> kept = keptIds(d.state, d.job(jobId), Optional.of(after));
        ended.forEach(e -> kept.remove(e.checkpointId()));
        return discards(d, jobId, DiscardReason.SUBSUMED, kept, ended);
    }

    private static List<StateDiscarded> discards(Decision d, String jobId, DiscardReason reason, Set<Long> kept,
            List<Ended> ended) {
        Map<Long, SharedStates.Release> releases = SharedStates.orphaned(d.state, jobId,
                ended.stream().map(Ended::checkpointId).toList());
        Set<String> finalStates = finalStateLocations(d.state, d.job(jobId));
        int perPart = RestoreParts.statesPerPart(d.settings.limits(), d.settings.maxRecordBytes());
        List<StateDiscarded> result = new ArrayList<>();
        for (Ended e : ended) {
            Listed objects = new Listed();
            if (e.ownStates()) {
                ownStates(d, jobId, kept, finalStates, e, objects);
            }
            boolean sharedToo = e.ownStates() || reason == DiscardReason.DISPOSED;
            SharedStates.Release release = releases.get(e.checkpointId());
            objects.kept += release.stillReferenced();
            for (SharedStateEntry orphan : release.orphans()) {
                if (!sharedToo || finalStates.contains(orphan.getLocation())) {
                    objects.kept++;
                } else {
                    objects.discarded.add(subtaskObject(orphan.getTaskId(), orphan.getSubtaskIndex(),
                            orphan.getLocation(), orphan.getSizeBytes(), true));
                }
            }
            if (!objects.discarded.isEmpty() || objects.kept > 0) {
                result.addAll(parts(jobId, e, reason, objects.discarded, objects.kept, perPart, d.now));
            }
        }
        return result;
    }

    /** What one checkpoint's discard lists, and how many of its objects it keeps. */
    private static final class Listed {
        final List<DiscardedObject> discarded = new ArrayList<>();
        int kept;
    }

    /** The checkpoint's own states: its subtasks' and its participants', unless something kept refers to them. */
    private static void ownStates(Decision d, String jobId, Set<Long> kept, Set<String> finalStates, Ended e,
            Listed objects) {
        for (CheckpointAcknowledged ack : d.state.acks(jobId, e.checkpointId())) {
            StateHandle handle = ack.getStateHandle();
            if (handle == null || handle.getLocation().isBlank()) {
                continue;
            }
            if (finalStates.contains(handle.getLocation()) || keptElsewhere(d.state, jobId, kept, ack)) {
                objects.kept++;
            } else {
                objects.discarded.add(subtaskObject(ack.getTaskId(), ack.getSubtaskIndex(), handle.getLocation(),
                        handle.getSizeBytes(), false));
            }
        }
        for (ParticipantState participant : e.participants()) {
            if (participant.getState() == null || participant.getState().getLocation().isBlank()) {
                continue;
            }
            if (participantKept(d.state, d.job(jobId), kept, participant)) {
                objects.kept++;
            } else {
                objects.discarded.add(DiscardedObject.newBuilder().setParticipant(participant.getParticipant())
                        .setLocation(participant.getState().getLocation())
                        .setSizeBytes(participant.getState().getSizeBytes()).build());
            }
        }
    }

    private static List<StateDiscarded> parts(String jobId, Ended e, DiscardReason reason,
            List<DiscardedObject> objects, int keptObjects, int perPart, long now) {
        int parts = Math.max(1, RestoreParts.partCount(objects.size(), perPart));
        List<StateDiscarded> result = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            result.add(StateDiscarded.newBuilder()
                    .setJobId(jobId)
                    .setCheckpointId(e.checkpointId())
                    .setType(e.type())
                    .setReason(reason)
                    .setMessage(e.message())
                    .setPart(part)
                    .setParts(parts)
                    .setObjects(new ArrayList<>(objects.subList(Math.min(objects.size(), part * perPart),
                            Math.min(objects.size(), (part + 1) * perPart))))
                    .setKeptObjects(keptObjects)
                    .setTimestampMs(now)
                    .build());
        }
        return result;
    }

    private static DiscardedObject subtaskObject(String taskId, int subtaskIndex, String location, long size,
            boolean shared) {
        return DiscardedObject.newBuilder().setTaskId(taskId).setSubtaskIndex(subtaskIndex).setLocation(location)
                .setSizeBytes(size).setShared(shared).build();
    }

    /**
     * The ids of the checkpoints that stay kept: pending ones, retained ones ({@code retained} when given, as they
     * will be) and kept savepoints.
     */
    private static Set<Long> keptIds(CoordinatorState state, JobState job, Optional<RetainedCheckpoints> retained) {
        Set<Long> ids = new HashSet<>();
        job.getPending().forEach(p -> ids.add(p.getCheckpointId()));
        retained.or(() -> state.retained(job.getJobId()))
                .ifPresent(r -> r.getCheckpoints().forEach(c -> ids.add(c.getCheckpointId())));
        state.savepoints(job.getJobId()).forEach(s -> ids.add(s.getCheckpointId()));
        return ids;
    }

    /** Whether a kept checkpoint's ack of the same subtask names the same location. */
    private static boolean keptElsewhere(CoordinatorState state, String jobId, Set<Long> kept,
            CheckpointAcknowledged ack) {
        for (long id : kept) {
            Optional<CheckpointAcknowledged> other = state.ack(jobId, id, ack.getTaskId(), ack.getSubtaskIndex());
            if (other.isPresent() && other.get().getStateHandle() != null
                    && other.get().getStateHandle().getLocation().equals(ack.getStateHandle().getLocation())) {
                return true;
            }
        }
        return false;
    }

    private static boolean participantKept(CoordinatorState state, JobState job, Set<Long> kept,
            ParticipantState participant) {
        List<List<ParticipantState>> others = new ArrayList<>();
        job.getPending().stream().filter(p -> kept.contains(p.getCheckpointId()))
                .forEach(p -> others.add(p.getParticipantStates()));
        state.retained(job.getJobId()).ifPresent(r -> r.getCheckpoints().stream()
                .filter(c -> kept.contains(c.getCheckpointId())).forEach(c -> others.add(c.getParticipantStates())));
        state.savepoints(job.getJobId()).stream().filter(s -> kept.contains(s.getCheckpointId()))
                .forEach(s -> others.add(s.getParticipantStates()));
        String location = participant.getState().getLocation();
        return others.stream().flatMap(List::stream).anyMatch(p -> p.getParticipant().equals(
                participant.getParticipant()) && p.getState() != null && p.getState().getLocation().equals(location));
    }

    /** The locations of the finished subtasks' final states and of the shared objects they name. */
    private static Set<String> finalStateLocations(CoordinatorState state, JobState job) {
        Set<String> locations = new HashSet<>();
        if (job.getFinishedSubtasks() == 0) {
            return locations;
        }
        for (TaskFinished finished : state.finished(job.getJobId())) {
            if (finished.getFinalState() != null) {
                locations.add(finished.getFinalState().getLocation());
                finished.getFinalState().getShared().stream().map(SharedState::getLocation).forEach(locations::add);
            }
        }
        return locations;
    }

    private static String describe(CheckpointCompleted point) {
        return (point.getType() == CheckpointType.SAVEPOINT ? "savepoint " : "checkpoint ") + point.getCheckpointId();
    }
}
