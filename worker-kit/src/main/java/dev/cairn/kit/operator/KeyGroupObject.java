package dev.cairn.kit.operator;

import java.util.Objects;

/**
 * The object that holds one key group of an operator subtask's keyed state ({@link KeyGroupCodec}): a checkpoint's
 * snapshot names one per non-empty group, written for it or for an earlier checkpoint.
 *
 * @param group the key group ({@link KeyGroups}), below the task's max parallelism
 * @param location where the object is
 * @param sizeBytes its size
 */
public record KeyGroupObject(int group, String location, long sizeBytes) {

    public KeyGroupObject {
        Objects.requireNonNull(location, "location");
        if (group < 0 || sizeBytes < 0) {
            throw new IllegalArgumentException("a key group and a size are not negative, were " + group + " and "
                    + sizeBytes);
        }
    }
}
