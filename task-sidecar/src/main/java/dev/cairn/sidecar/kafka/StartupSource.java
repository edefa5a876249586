package dev.cairn.sidecar.kafka;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;
import java.util.List;

/**
 * What start-up reads to restore the worker: the completions on {@code cairn.control} before the sidecar's position,
 * and the job's restore records on {@code cairn.completed}. {@link StartupReads#source} reads the topics; a test
 * hands in what the topics would show.
 */
interface StartupSource {

    /**
     * The completions read on the job's control partition before the sidecar's position, from the look-back's
     * start ({@link StartupReads#CONTROL_LOOKBACK}); read once. Other jobs' may be among them.
     */
    List<CheckpointCompleted> completionsOnControl();

    /** The job's latest values on the completed topic, read to its end; each call reads it again. */
    RestoreRecords restoreRecords();
}
