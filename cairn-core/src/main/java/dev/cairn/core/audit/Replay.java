package dev.cairn.core.audit;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.EventFields;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;

/**
 * Folds journal records into the coordinator's state with its own {@link CheckpointEvolver} (pure): every job's,
 * or only one job's. Records that do not decode are skipped and counted; the last record applied is remembered,
 * so a state "as of" a point of the journal says which record it ends with.
 */
public final class Replay {

    private final CheckpointEvolver evolver;
    private final String onlyJob;
    private final CoordinatorState state = CoordinatorState.inMemory();
    private long applied;
    private long skipped;
    private JournalEntry last;

    /**
     * @param settings the settings the coordinator ran with
     * @param onlyJob the job to replay, {@code null} for every job
     */
    public Replay(CoordinatorSettings settings, String onlyJob) {
        this.evolver = new CheckpointEvolver(settings);
        this.onlyJob = onlyJob;
    }

    /** Applies the record's event, when it decoded and is about the job replayed. */
    public void accept(JournalEntry entry) {
        if (!entry.decoded()) {
            skipped++;
            return;
        }
        if (onlyJob != null && !onlyJob.equals(EventFields.jobId(entry.event()))) {
            return;
        }
        evolver.evolve(state, entry.event());
        applied++;
        last = entry;
    }

    public CoordinatorState state() {
        return state;
    }

    /** How many events were applied. */
    public long applied() {
        return applied;
    }

    /** How many records did not decode. */
    public long skipped() {
        return skipped;
    }

    /** The last record applied, {@code null} when none was. */
    public JournalEntry last() {
        return last;
    }
}
