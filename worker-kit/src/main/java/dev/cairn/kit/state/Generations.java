package dev.cairn.kit.state;

import dev.cairn.sidecar.hook.AttemptNumber;
import java.util.Optional;

/**
 * The generations a kit task announces downstream, one per incarnation (each start, and each rollback of an operator),
 * ordered without a clock. A downstream task takes a newer generation for a restarted upstream and drops an older
 * one's records as stale, so a new incarnation's generation must be above every generation the subtask announced
 * before, whichever host it ran on.
 *
 * <p>With its sidecar's {@link AttemptNumber} (the offset of the attempt's registration, which grows with every
 * attempt of the job), an attempt's first generation is {@code 2^42 + number * 2^20}, and each rollback within the
 * attempt adds one. Every earlier attempt of the subtask was registered before, so its generations, at most
 * {@code 2^20 - 1} rollbacks above its first, are all below; an attempt that would roll back {@code 2^20} times
 * fails instead, and its successor is numbered anew. {@code 2^42} lies above every generation that releases before
 * this one took from the wall clock (milliseconds since 1970, below {@code 2^42} until the year 2109), so that a
 * downstream task still running such a generation takes the first new one as newer.
 *
 * <p>Without an attempt number (a task driven without a sidecar), a generation is one more than the restored
 * state's, and than the previous incarnation's: that orders a lineage of restores, not two restarts from one
 * checkpoint.
 */
public final class Generations {

    /** The first generation of attempt 0: above every wall-clock generation of earlier releases. */
    public static final long FLOOR = 1L << 42;
    /** How many generations an attempt may announce: its first and this many minus one rollbacks. */
    public static final long PER_ATTEMPT = 1L << 20;

    private final String task;
    private final Optional<AttemptNumber> attempt;
    private long current = -1;

    /** The generations of {@code task}'s incarnations in {@code attempt} (empty: driven without a sidecar). */
    public Generations(String task, Optional<AttemptNumber> attempt) {
        this.task = task;
        this.attempt = attempt;
    }

    /**
     * The generation of the next incarnation, restored from a state written by generation {@code restored} (-1: the
     * initial state): above the restored one and every earlier one of this attempt.
     *
     * @throws IllegalStateException when the attempt announced all its {@link #PER_ATTEMPT} generations
     */
    public long next(long restored) {
        long previous = Math.max(current, restored);
        if (attempt.isEmpty()) {
            current = previous + 1;
            return current;
        }
        long first = FLOOR + attempt.get().number() * PER_ATTEMPT;
        long next = Math.max(previous + 1, first);
        if (next >= first + PER_ATTEMPT) {
            throw new IllegalStateException(task + " rolled back " + (PER_ATTEMPT - 1) + " times in attempt "
                    + attempt.get().attemptId() + ": it stops, and a new attempt announces newer generations");
        }
        current = next;
        return current;
    }

    /** The current incarnation's generation; -1 before the first. */
    public long current() {
        return current;
    }
}
