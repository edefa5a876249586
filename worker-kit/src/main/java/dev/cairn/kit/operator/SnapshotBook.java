package dev.cairn.kit.operator;

import dev.cairn.kit.state.Lineage;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Pairs an operator subtask's snapshots with the sidecar's requests for them, and keeps the subtask's lineage: the
 * checkpoint its state was restored (or rolled back) to and the snapshots taken since, with their locations. Pure:
 * no Kafka, no I/O; the task's loop thread owns it.
 *
 * <p>A downstream subtask takes its snapshot when barrier N arrived on every input, which may be before or after the
 * sidecar asks for checkpoint N (the request carries the storage location the file goes to). Whichever comes second
 * makes the pair {@link Ready}; a request for a checkpoint the subtask declined, or passed without aligning, is
 * declined with the reason.
 */
final class SnapshotBook {

    /** A snapshot taken at alignment, waiting for its request: the encoded state and the output's part. */
    record Aligned(long checkpointId, PendingState state, TaskOutput.Sealed output) {}

    /** A request waiting for its snapshot. */
    record Waiting(SnapshotRequest request, CompletableFuture<SnapshotResult> result) {}

    /** A snapshot and its request: write the files, then complete the result. */
    record Ready(Aligned snapshot, Waiting request) {}

    private final NavigableMap<Long, Aligned> aligned = new TreeMap<>();
    private final NavigableMap<Long, Waiting> waiting = new TreeMap<>();
    private final NavigableMap<Long, String> declined = new TreeMap<>();
    private final Lineage lineage = new Lineage();
    private long lastAligned = -1;

    /**
     * The subtask's state now comes from checkpoint {@code checkpointId} (-1: the initial state), whose snapshot of
     * this subtask is at {@code location}: what was aligned or asked for before is declined with {@code reason}.
     */
    void rebase(long checkpointId, Optional<String> location, String reason) {
        declined.clear();
        lineage.rebase(checkpointId, location);
        lastAligned = checkpointId;
        dropEverythingWaiting(new IllegalStateException(reason));
    }

    /** The subtask stopped: every request waiting for its barriers is declined with {@code cause}. */
    void stopped(Throwable cause) {
        dropEverythingWaiting(cause);
    }

    /** Forgets every aligned snapshot and declines every waiting request with {@code cause}. */
    private void dropEverythingWaiting(Throwable cause) {
        List<Waiting> dropped = new ArrayList<>(waiting.values());
        waiting.clear();
        aligned.clear();
        dropped.forEach(w -> w.result().completeExceptionally(cause));
    }

    /** The checkpoints whose snapshots were taken at their barrier and wait for their request. */
    Set<Long> held() {
        return Set.copyOf(aligned.keySet());
    }

    /** The checkpoint the subtask's state comes from (-1: the initial state). */
    long base() {
        return lineage.base();
    }

    /** The subtask's snapshot of {@code checkpointId} in its lineage, if it took (or restored) one. */
    Optional<String> location(long checkpointId) {
        return lineage.location(checkpointId);
    }

    /** Barrier {@code checkpointId} aligned: the snapshot is ready if its request is here. */
    Optional<Ready> aligned(Aligned snapshot) {
        lastAligned = Math.max(lastAligned, snapshot.checkpointId());
        Waiting request = waiting.remove(snapshot.checkpointId());
        if (request != null) {
            return Optional.of(new Ready(snapshot, request));
        }
        aligned.put(snapshot.checkpointId(), snapshot);
        return Optional.empty();
    }

    /**
     * Checkpoints up to {@code checkpointId} will not be aligned again (their barriers were read before a rollback):
     * a request for one is declined at once instead of waiting for barriers that never come.
     */
    void skipThrough(long checkpointId) {
        lastAligned = Math.max(lastAligned, checkpointId);
    }

    /** The subtask declined checkpoint {@code checkpointId}; a waiting request is declined at once. */
    void declined(long checkpointId, String reason) {
        declined.put(checkpointId, reason);
        Waiting request = waiting.remove(checkpointId);
        if (request != null) {
            request.result().completeExceptionally(new IllegalStateException(reason));
        }
    }

    /**
     * The sidecar asks for a snapshot: ready when it was aligned already; declined when the subtask declined it or
     * aligned a later checkpoint first (barriers come in checkpoint order); otherwise it waits for the barriers.
     */
    Optional<Ready> requested(Waiting request) {
        long id = request.request().checkpointId();
        Aligned snapshot = aligned.remove(id);
        if (snapshot != null) {
            return Optional.of(new Ready(snapshot, request));
        }
        String reason = declined.get(id);
        if (reason == null && id <= lastAligned) {
            reason = "checkpoint " + id + " is older than checkpoint " + lastAligned + " this subtask aligned or "
                    + "restored; its barriers never aligned here";
        }
        if (reason != null) {
            request.result().completeExceptionally(new IllegalStateException(reason));
        } else {
            waiting.put(id, request);
        }
        return Optional.empty();
    }

    /** The snapshot of {@code checkpointId} was written to {@code location}: it joins the lineage. */
    void taken(long checkpointId, String location) {
        lineage.taken(checkpointId, location);
    }

    /**
     * Checkpoint {@code checkpointId} completed. Answers whether it belongs to this lineage (a snapshot taken or
     * restored here); then what is older is forgotten, and the checkpoint becomes the oldest the subtask may roll
     * back to. A completed checkpoint newer than the base and not in the lineage means the subtask is behind.
     */
    boolean completed(long checkpointId) {
        if (!lineage.completed(checkpointId)) {
            return false;
        }
        aligned.headMap(checkpointId, true).clear();
        declined.headMap(checkpointId, true).clear();
        return true;
    }

    /**
     * Whether the subtask's state is older than checkpoint {@code latestCompletedId}, which completed without a
     * snapshot of this lineage: the subtask must not take part in later checkpoints and restarts to restore it.
     */
    boolean behind(long latestCompletedId) {
        return lineage.behind(latestCompletedId);
    }

    /** What a subtask that is behind checkpoint {@code checkpointId} says. */
    String behindMessage(String subtask, long checkpointId) {
        return lineage.behindMessage(subtask, checkpointId);
    }

    /** Checkpoint {@code checkpointId} was aborted: its aligned snapshot is dropped, a waiting request declined. */
    void aborted(long checkpointId) {
        aligned.remove(checkpointId);
        declined(checkpointId, "checkpoint " + checkpointId + " was aborted");
    }
}
