package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.SubtaskState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The restore parts of one checkpoint, the job's restore point, among the latest values of the part keys a starting
 * sidecar read on {@code cairn.completed}. Part 0 says how many parts the checkpoint has: the parts of that checkpoint
 * with that count are its parts, numbered 0 to the count - 1; a part key of a higher number that still holds a part
 * of the same checkpoint written with another count (an earlier layout of it) is not one of them. Pure.
 */
final class NewestRestoreParts {

    private final long checkpointId;
    private final int expected;
    private final List<RestorePart> parts;
    private final List<Integer> missing;

    private NewestRestoreParts(long checkpointId, int expected, List<RestorePart> parts, List<Integer> missing) {
        this.checkpointId = checkpointId;
        this.expected = expected;
        this.parts = parts;
        this.missing = missing;
    }

    /**
     * The parts of checkpoint {@code newest} among {@code read}. None when none was read: a checkpoint without
     * subtask states has none, and the coordinator writes the others with the restore point itself.
     */
    static NewestRestoreParts of(CheckpointCompleted newest, Collection<RestorePart> read) {
        long id = newest.getCheckpointId();
        List<RestorePart> candidates = read.stream().filter(p -> p.getCheckpointId() == id).toList();
        if (candidates.isEmpty()) {
            return new NewestRestoreParts(id, 0, List.of(), List.of());
        }
        int expected = candidates.stream().filter(p -> p.getPart() == 0).mapToInt(RestorePart::getParts).findFirst()
                .orElse(candidates.stream().mapToInt(RestorePart::getParts).max().orElse(0));
        TreeMap<Integer, RestorePart> layout = new TreeMap<>();
        for (RestorePart part : candidates) {
            if (part.getParts() == expected && part.getPart() >= 0 && part.getPart() < expected) {
                layout.putIfAbsent(part.getPart(), part);
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int number = 0; number < expected; number++) {
            if (!layout.containsKey(number)) {
                missing.add(number);
            }
        }
        return new NewestRestoreParts(id, Math.max(0, expected), List.copyOf(layout.values()), List.copyOf(missing));
    }

    /** Whether every part of the checkpoint was read. */
    boolean complete() {
        return missing.isEmpty();
    }

    /** What is missing, as start-up says it: how many parts of how many were read, and the numbers of the others. */
    String describeMissing() {
        return parts.size() + " of the " + expected + " restore parts of checkpoint " + checkpointId + " (missing: "
                + (missing.size() <= 10 ? missing.toString() : missing.subList(0, 10) + " and "
                        + (missing.size() - 10) + " more") + ")";
    }

    /** The entries of {@code taskId} / {@code subtaskIndex} over every part, in the order of the parts. */
    List<SubtaskState> entriesOf(String taskId, int subtaskIndex) {
        List<SubtaskState> entries = new ArrayList<>();
        for (RestorePart part : parts) {
            for (SubtaskState state : part.getStates()) {
                if (state.getTaskId().equals(taskId) && state.getSubtaskIndex() == subtaskIndex) {
                    entries.add(state);
                }
            }
        }
        return entries;
    }

    /**
     * How the parts say {@code taskId} restores (its parallelism now and then, its max parallelism); empty when no
     * part names it, as in the parts of a coordinator written before rescaling existed.
     */
    Optional<RestoredTask> task(String taskId) {
        for (RestorePart part : parts) {
            for (RestoredTask task : part.getTasks()) {
                if (task.getTaskId().equals(taskId)) {
                    return Optional.of(task);
                }
            }
        }
        return Optional.empty();
    }
}
