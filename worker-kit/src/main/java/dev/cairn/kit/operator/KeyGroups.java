package dev.cairn.kit.operator;

import org.apache.kafka.common.utils.Utils;

/**
 * The key groups of an operator's keyed state (Flink: KeyGroupRangeAssignment): a key's group is a hash of its bytes
 * modulo {@link #COUNT}. The state is snapshotted by group, so that a checkpoint writes only the groups that changed
 * and refers to the files of the others.
 */
public final class KeyGroups {

    /** How many groups a subtask's keyed state is cut into (Flink's lowest default max parallelism). */
    public static final int COUNT = 128;

    private KeyGroups() {
    }

    /** The group of {@code key}: murmur2 of its bytes, made positive, modulo {@link #COUNT}. */
    public static int of(byte[] key) {
        return Utils.toPositive(Utils.murmur2(key)) % COUNT;
    }
}
