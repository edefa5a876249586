package dev.cairn.sidecar.hook;

/**
 * One object of incremental state that a snapshot is made of besides its own object, and that other checkpoints'
 * snapshots may be made of as well (Flink: a shared state handle of an incremental snapshot). The coordinator counts
 * the checkpoints that refer to it and tells the subtask that wrote it to delete it once none does
 * ({@link SnapshotHook#discardState}, with {@link DiscardedState#shared} true).
 *
 * <p>The sidecar checks what a hook returns: an object without a location (blank or {@code null}), with a negative
 * size, at the snapshot's own location or listed twice declines the snapshot, naming the object.
 *
 * @param location where the object is; never the snapshot's own location
 * @param sizeBytes its size
 * @param reused false: written for this checkpoint; true: written for an earlier checkpoint and referred to again
 *     (Flink: a placeholder). The coordinator refuses a snapshot that reuses an object no checkpoint refers to any
 *     more, since it may have been deleted.
 */
public record SharedObject(String location, long sizeBytes, boolean reused) {

    /** An object written for this checkpoint. */
    public static SharedObject written(String location, long sizeBytes) {
        return new SharedObject(location, sizeBytes, false);
    }

    /** An object written for an earlier checkpoint and referred to again. */
    public static SharedObject reused(String location, long sizeBytes) {
        return new SharedObject(location, sizeBytes, true);
    }
}
