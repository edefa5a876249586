package dev.cairn.client.audit;

import dev.cairn.core.audit.AuditJournals;
import dev.cairn.core.audit.JournalEntry;
import java.util.List;

/** {@link AuditJournals} for tests of other packages. */
public final class AuditJournalsAccess {

    private AuditJournalsAccess() {
    }

    /** The decider's journal of two jobs, as records of partition 0 keyed by job. */
    public static List<JournalEntry> twoJobs() {
        return AuditJournals.entries(AuditJournals.twoJobs());
    }

    /** The values of {@link OldSchemaJournal}: job {@code legacy} written with every frozen JournalEnvelope version. */
    public static List<byte[]> oldSchemaValues() {
        return OldSchemaJournal.values();
    }

    /** The job of {@link #oldSchemaValues()}. */
    public static final String OLD_SCHEMA_JOB = OldSchemaJournal.JOB;
}
