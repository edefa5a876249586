package dev.cairn.kit.wire;

import dev.cairn.kit.align.Alignment;

/**
 * What a record read from a kit topic is, as its headers say ({@link KitRecords#read}). The payload stays in the
 * consumer record; this type carries what the headers hold.
 */
public sealed interface KitRecord {

    /** A data record of upstream subtask {@code from}, written by its incarnation of generation {@code generation}. */
    record Data(int from, long generation) implements KitRecord {}

    /** Barrier {@code checkpointId} of upstream subtask {@code from}, generation {@code generation}. */
    record Barrier(long checkpointId, int from, long generation, Alignment alignment) implements KitRecord {}

    /**
     * Upstream subtask {@code from} started an incarnation of generation {@code generation}, restored from
     * checkpoint {@code restoredFrom} (-1: a fresh start); its later records carry that generation, and records of
     * older generations on the same channel are stale.
     */
    record Resume(int from, long generation, long restoredFrom) implements KitRecord {}

    /** A record whose kit headers are missing or wrong, and why (to be dead-lettered with that reason). */
    record Malformed(String reason) implements KitRecord {}
}
