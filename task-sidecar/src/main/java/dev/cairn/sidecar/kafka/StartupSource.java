package dev.cairn.sidecar.kafka;

import dev.cairn.sidecar.kafka.StartupReads.ControlLookBack;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;

/**
 * What start-up reads to restore the worker: the completions and discards on {@code cairn.control} before the
 * sidecar's position, and the job's restore records on {@code cairn.completed}. {@link StartupReads#source} reads the
 * topics; a test hands in what the topics would show.
 */
interface StartupSource {

    /**
     * The completions and discards read on the job's control partition before the sidecar's position, from the
     * look-back's start ({@link StartupReads#CONTROL_LOOKBACK}); read once. Other jobs' completions may be among
     * them.
     */
    ControlLookBack controlLookBack();

    /** The job's latest values on the completed topic, read to its end; each call reads it again. */
    RestoreRecords restoreRecords();
}
