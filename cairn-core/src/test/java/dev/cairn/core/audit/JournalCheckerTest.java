package dev.cairn.core.audit;

import static dev.cairn.core.audit.AuditJournals.BILLING;
import static dev.cairn.core.audit.AuditJournals.ORDERS;
import static dev.cairn.core.audit.AuditJournals.changed;
import static dev.cairn.core.audit.AuditJournals.entries;
import static dev.cairn.core.audit.AuditJournals.indexOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.audit.Violation.Rule;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureCounted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.StateDiscarded;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class JournalCheckerTest {

    private final List<SpecificRecord> journal = AuditJournals.twoJobs();

    @Test
    void shouldFindNoViolationInAJournalTheDeciderWrote() {
        JournalChecker checker = check(entries(journal));

        assertThat(checker.finish()).isEmpty();
        assertThat(checker.records()).isEqualTo(journal.size());
        assertThat(checker.state().job(ORDERS).orElseThrow().getCounts().getCompleted()).isEqualTo(2);
        assertThat(checker.state().job(BILLING).orElseThrow().getLatestCompletedId()).isEqualTo(1);
    }

    @Test
    void shouldReportARecordThatDoesNotDecodeAtItsOffset() {
        List<JournalEntry> entries = new ArrayList<>(entries(journal));
        entries.add(JournalEntry.undecodable(0, entries.size(), 0, ORDERS, "the JournalEnvelope ends early (3 bytes)"));

        List<Violation> violations = check(entries).finish();

        assertThat(violations).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo(Rule.UNDECODABLE);
            assertThat(v.offset()).isEqualTo(journal.size());
            assertThat(v.message()).contains("ends early");
        });
    }

    @Test
    void shouldReportACheckpointIdThatDoesNotIncrease() {
        int third = indexOf(journal, CheckpointTriggered.class, ORDERS, 3);
        List<SpecificRecord> broken = changed(journal, third, (CheckpointTriggered t) -> {
            t.setCheckpointId(1);
            return t;
        });

        assertThat(check(entries(broken)).finish()).filteredOn(v -> v.rule() == Rule.ID_ORDER).singleElement()
                .satisfies(v -> {
                    assertThat(v.offset()).isEqualTo(third);
                    assertThat(v.jobId()).isEqualTo(ORDERS);
                    assertThat(v.message()).isEqualTo("checkpoint 1 triggered after checkpoint 2");
                });
    }

    @Test
    void shouldReportACheckpointThatEndsTwice() {
        int completed = indexOf(journal, CheckpointCompleted.class, ORDERS, 1);
        List<SpecificRecord> broken = new ArrayList<>(journal);
        broken.add(journal.get(completed));

        assertThat(check(entries(broken)).finish()).filteredOn(v -> v.rule() == Rule.ENDED_TWICE).singleElement()
                .satisfies(v -> {
                    assertThat(v.offset()).isEqualTo(journal.size());
                    assertThat(v.message()).isEqualTo("checkpoint 1 completed after it had ended");
                });
    }

    @Test
    void shouldReportACheckpointThatEndsWithoutATrigger() {
        int aborted = indexOf(journal, CheckpointAborted.class, ORDERS, 2);
        List<SpecificRecord> broken = changed(journal, aborted, (CheckpointAborted a) -> {
            a.setCheckpointId(7);
            return a;
        });

        assertThat(check(entries(broken)).finish()).extracting(Violation::rule, Violation::offset)
                .contains(org.assertj.core.groups.Tuple.tuple(Rule.END_WITHOUT_TRIGGER, (long) aborted));
    }

    @Test
    void shouldReportACompletionBeforeEveryRequiredAck() {
        int sinkAck = indexOf(journal, CheckpointAcknowledged.class, ORDERS, 3) + 2;
        int completed = indexOf(journal, CheckpointCompleted.class, ORDERS, 3);
        List<SpecificRecord> broken = new ArrayList<>(journal);
        broken.remove(sinkAck);

        assertThat(check(entries(broken)).finish()).filteredOn(v -> v.rule() == Rule.EARLY_COMPLETION).singleElement()
                .satisfies(v -> {
                    assertThat(v.offset()).isEqualTo(completed - 1);
                    assertThat(v.message()).isEqualTo("checkpoint 3 completed with 2 of its 3 required acks");
                });
    }

    @Test
    void shouldReportAnAckAcceptedAfterTheEnd() {
        int ack = indexOf(journal, CheckpointAcknowledged.class, ORDERS, 1);
        List<SpecificRecord> broken = new ArrayList<>(journal);
        broken.add(journal.get(ack));

        assertThat(check(entries(broken)).finish()).filteredOn(v -> v.rule() == Rule.ACK_AFTER_END).singleElement()
                .satisfies(v -> {
                    assertThat(v.offset()).isEqualTo(journal.size());
                    assertThat(v.message()).startsWith("checkpoint 1 accepted an ack of task source subtask 0");
                });
    }

    @Test
    void shouldReportAnAckOfACheckpointNeverTriggeredAndASecondAckOfOneSubtask() {
        int ack = indexOf(journal, CheckpointAcknowledged.class, ORDERS, 3);
        List<SpecificRecord> broken = new ArrayList<>(journal.subList(0, ack + 1));
        broken.add(journal.get(ack));
        broken.addAll(journal.subList(ack + 1, journal.size()));
        broken.add(AuditJournals.ack(ORDERS, 9, "source", 0, 2_000, 1, "source-0-a1"));

        List<Violation> violations = check(entries(broken)).finish();

        assertThat(violations).extracting(Violation::rule, Violation::offset).contains(
                org.assertj.core.groups.Tuple.tuple(Rule.DUPLICATE_ACK, (long) ack + 1),
                org.assertj.core.groups.Tuple.tuple(Rule.ACK_NOT_PENDING, (long) broken.size() - 1));
    }

    @Test
    void shouldReportARecordKeyedByAnotherJobOrInAnotherPartition() {
        List<JournalEntry> entries = new ArrayList<>(entries(journal));
        JournalEntry last = entries.get(entries.size() - 1);
        entries.set(entries.size() - 1, JournalEntry.of(0, last.offset(), 0, BILLING, last.event()));
        JournalEntry first = entries.get(0);
        entries.set(0, JournalEntry.of(1, 0, 0, first.key(), first.event()));

        List<Violation> violations = check(entries).finish();

        assertThat(violations).extracting(Violation::rule).containsExactly(Rule.PARTITION, Rule.KEY);
        assertThat(violations.get(1).message()).endsWith("is keyed 'billing'");
    }

    @Test
    void shouldReportACompletionWhoseCountAndSizeDisagreeWithItsAcks() {
        int completed = indexOf(journal, CheckpointCompleted.class, ORDERS, 1);
        List<SpecificRecord> broken = changed(journal, completed, (CheckpointCompleted c) -> {
            c.setSubtaskCount(4);
            c.setTotalSizeBytes(1);
            return c;
        });

        assertThat(check(entries(broken)).finish()).extracting(Violation::message).containsExactly(
                "completion of checkpoint 1 counts 4 subtask states, the journal 3 accepted acks and 0 finished "
                        + "subtasks",
                "completion of checkpoint 1 states 1 bytes, its accepted acks and finished subtasks hold 600");
    }

    @Test
    void shouldReportAFailureCounterThatDoesNotFollowThePreviousCount() {
        int counted = indexOf(journal, CheckpointFailureCounted.class, ORDERS, 2);
        List<SpecificRecord> broken = changed(journal, counted, (CheckpointFailureCounted c) -> {
            c.setConsecutiveFailures(3);
            return c;
        });

        assertThat(check(entries(broken)).finish()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo(Rule.COUNTERS);
            assertThat(v.offset()).isEqualTo(counted);
            assertThat(v.message()).isEqualTo("failure of checkpoint 2 counted 3 consecutive failures after 0");
        });
    }

    @Test
    void shouldReportCountsThatDoNotAddUpWhenATriggerIsRepeated() {
        int triggered = indexOf(journal, CheckpointTriggered.class, BILLING, 1);
        List<SpecificRecord> broken = new ArrayList<>(journal);
        broken.add(triggered + 1, journal.get(triggered));

        assertThat(check(entries(broken)).finish()).extracting(Violation::message)
                .contains("job billing: counts.triggered replayed=1, events=2");
    }

    @Test
    void shouldReportADiscardOfTheStateARetainedCheckpointRefersTo() {
        int discard = indexOf(journal, StateDiscarded.class, ORDERS, 1);
        int retainedAck = indexOf(journal, CheckpointAcknowledged.class, ORDERS, 3);
        CheckpointAcknowledged kept = (CheckpointAcknowledged) journal.get(retainedAck);
        List<SpecificRecord> broken = changed(journal, discard, (StateDiscarded d) -> {
            d.setObjects(List.of(DiscardedObject.newBuilder(d.getObjects().get(0)).setTaskId(kept.getTaskId())
                    .setSubtaskIndex(kept.getSubtaskIndex()).setLocation(kept.getStateHandle().getLocation())
                    .build()));
            return d;
        });

        assertThat(check(entries(journal)).finish()).isEmpty();
        assertThat(check(entries(broken)).finish()).filteredOn(v -> v.rule() == Rule.DISCARDED_WHILE_KEPT)
                .singleElement().satisfies(v -> {
                    assertThat(v.offset()).isEqualTo(discard);
                    assertThat(v.message()).contains(kept.getStateHandle().getLocation(), "kept checkpoint 3");
                });
    }

    private static JournalChecker check(List<JournalEntry> entries) {
        JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
        entries.forEach(checker::accept);
        return checker;
    }
}
