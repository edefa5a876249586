package dev.cairn.kit.align;

import dev.cairn.events.AlignmentType;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * How a task takes its snapshot for one checkpoint, as the barrier says (a source copies it from the trigger's
 * {@link dev.cairn.sidecar.hook.CheckpointOptions#alignment()}).
 *
 * <ul>
 *   <li>{@link #EXACTLY_ONCE}: Flink's aligned checkpoint. Once a channel delivered barrier N its later records are
 *       held back until barrier N arrived on every channel; the snapshot then reflects exactly the records before
 *       the barriers.</li>
 *   <li>{@link #AT_LEAST_ONCE}: nothing is held back; the snapshot is taken when the last channel delivers barrier N
 *       and may reflect records that followed an earlier channel's barrier; a restore replays those again.</li>
 * </ul>
 *
 * <p>Unaligned checkpoints are not supported by the kit: they would have to put the held-back in-flight records
 * into the snapshot, and the kit's snapshot holds the task's state and its input positions only. A trigger that
 * asks for them is aligned anyway ({@link #fromTrigger} logs that once per JVM).
 */
public enum Alignment {
    EXACTLY_ONCE,
    AT_LEAST_ONCE;

    private static final AtomicBoolean UNALIGNED_LOGGED = new AtomicBoolean();

    /**
     * The kit's alignment for a trigger's alignment type: ALIGNED and FORCED_ALIGNED align, AT_LEAST_ONCE does not,
     * UNALIGNED aligns (unsupported; logged once). A {@code null} type takes the default, ALIGNED.
     */
    public static Alignment fromTrigger(AlignmentType type) {
        if (type == AlignmentType.AT_LEAST_ONCE) {
            return AT_LEAST_ONCE;
        }
        if (type == AlignmentType.UNALIGNED && UNALIGNED_LOGGED.compareAndSet(false, true)) {
            LoggerFactory.getLogger(Alignment.class).warn("A checkpoint asked for unaligned barriers; the worker kit "
                    + "does not support unaligned checkpoints (in-flight records are not part of its snapshots) "
                    + "and aligns them instead. Logged once.");
        }
        return EXACTLY_ONCE;
    }
}
