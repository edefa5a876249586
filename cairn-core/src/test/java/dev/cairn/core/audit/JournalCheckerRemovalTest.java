package dev.cairn.core.audit;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.audit.Violation.Rule;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Scenario;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RemoveJob;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * The journal's invariants across a job's removal: the job registered again under its id starts its counts anew,
 * and its checkpoint ids must go on above the removed job's.
 */
class JournalCheckerRemovalTest {

    /** Checkpoint 1 completed, the job suspended and removed, registered again, checkpoint 2 completed. */
    private static List<SpecificRecord> removedAndRegisteredAgain() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(status(JobStatus.SUSPENDED), 1200)
                .and(new Command.Remove(RemoveJob.newBuilder().setJobId(JOB).setRequestId("r1").setRequester("test")
                        .setTimestampMs(0).build()), 1300)
                .runningJobOf(spec(), 2000).and(tick(), 2000).ackAll(JOB, 2, 2100);
        return scenario.journal();
    }

    private static List<JournalEntry> entries(List<SpecificRecord> journal) {
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < journal.size(); i++) {
            entries.add(JournalEntry.of(0, i, 0, JOB, journal.get(i)));
        }
        return entries;
    }

    private static List<Violation> check(List<SpecificRecord> journal) {
        JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
        entries(journal).forEach(checker::accept);
        return checker.finish();
    }

    @Test
    void shouldFindNoViolationInAJournalWithARemovalAndTheIdRegisteredAgain() {
        List<SpecificRecord> journal = removedAndRegisteredAgain();

        assertThat(journal).filteredOn(JobRemoved.class::isInstance).hasSize(1);
        assertThat(check(journal)).isEmpty();
    }

    @Test
    void shouldReportACheckpointIdOfTheJobRegisteredAgainThatTheRemovedJobUsed() {
        List<SpecificRecord> journal = new ArrayList<>(removedAndRegisteredAgain());
        int second = -1;
        for (int i = 0; i < journal.size(); i++) {
            if (journal.get(i) instanceof CheckpointTriggered t && t.getCheckpointId() == 2) {
                second = i;
            }
        }
        CheckpointTriggered reused = CheckpointTriggered.newBuilder((CheckpointTriggered) journal.get(second))
                .setCheckpointId(1).build();
        journal.set(second, reused);

        assertThat(check(journal)).filteredOn(v -> v.rule() == Rule.ID_ORDER).singleElement()
                .satisfies(v -> assertThat(v.message()).isEqualTo("checkpoint 1 triggered after checkpoint 1"));
    }
}
