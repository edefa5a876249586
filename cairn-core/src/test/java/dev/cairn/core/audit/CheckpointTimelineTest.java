package dev.cairn.core.audit;

import static dev.cairn.core.audit.AuditJournals.ORDERS;
import static dev.cairn.core.audit.AuditJournals.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.audit.CheckpointTimeline.Entry;
import dev.cairn.core.audit.CheckpointTimeline.Kind;
import dev.cairn.core.audit.CheckpointTimeline.Outcome;
import dev.cairn.core.audit.CheckpointTimeline.Timeline;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointTimelineTest {

    private final List<JournalEntry> journal = entries(AuditJournals.twoJobs());

    @Test
    void shouldTellWhenACheckpointWasTriggeredEveryAckAndItsCompletion() {
        Timeline timeline = timeline(ORDERS, 1);

        assertThat(timeline.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(timeline.triggeredAtMs()).isEqualTo(1_010);
        assertThat(timeline.endedAtMs()).isEqualTo(1_030);
        assertThat(timeline.acksExpected()).isEqualTo(3);
        assertThat(timeline.acksAccepted()).isEqualTo(3);
        assertThat(timeline.entries()).extracting(Entry::kind).containsSubsequence(Kind.TRIGGERED, Kind.ACK, Kind.ACK,
                Kind.ACK, Kind.COMPLETED);
        assertThat(timeline.entries()).filteredOn(e -> e.kind() == Kind.ACK)
                .extracting(Entry::timeMs, Entry::task, Entry::subtask, Entry::attempt, Entry::sizeBytes)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1_020L, "source", 0, "source-0-a1", 100L),
                        org.assertj.core.groups.Tuple.tuple(1_021L, "source", 1, "source-1-a1", 200L),
                        org.assertj.core.groups.Tuple.tuple(1_030L, "sink", 0, "sink-0-a1", 300L));
        assertThat(timeline.entries()).extracting(Entry::offset).isSorted();
    }

    @Test
    void shouldTellTheDeclineTheAbortWithItsReasonAndALateAck() {
        Timeline timeline = timeline(ORDERS, 2);

        assertThat(timeline.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(timeline.reason()).startsWith("CHECKPOINT_DECLINED: ");
        assertThat(timeline.entries()).extracting(Entry::kind).containsSubsequence(Kind.TRIGGERED, Kind.ACK,
                Kind.DECLINE, Kind.ABORTED, Kind.ACK_DISCARDED);
        Entry decline = timeline.entries().stream().filter(e -> e.kind() == Kind.DECLINE).findFirst().orElseThrow();
        assertThat(decline.task()).isEqualTo("source");
        assertThat(decline.subtask()).isEqualTo(1);
        assertThat(decline.detail()).isEqualTo("CHECKPOINT_DECLINED: disk full");
        Entry late = timeline.entries().get(timeline.entries().size() - 1);
        assertThat(late.kind()).isEqualTo(Kind.ACK_DISCARDED);
        assertThat(late.detail()).startsWith("LATE: ");
    }

    @Test
    void shouldTellWhatWasDiscardedOfACheckpointAndWhyOneObjectPerLine() {
        Timeline timeline = timeline(ORDERS, 1);

        Entry discard = timeline.entries().stream().filter(e -> e.kind() == Kind.STATE_DISCARDED).findFirst()
                .orElseThrow();
        assertThat(discard.detail()).startsWith("SUBSUMED: 3 own and 0 shared object(s) discarded, 0 kept")
                .contains("subsumed by checkpoint 3");
        assertThat(discard.sizeBytes()).isEqualTo(600L);
        assertThat(timeline.entries()).filteredOn(e -> e.kind() == Kind.DISCARDED_OBJECT)
                .extracting(Entry::task, Entry::subtask, Entry::sizeBytes)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("source", 0, 100L),
                        org.assertj.core.groups.Tuple.tuple("source", 1, 200L),
                        org.assertj.core.groups.Tuple.tuple("sink", 0, 300L));
        assertThat(timeline.entries()).filteredOn(e -> e.kind() == Kind.DISCARDED_OBJECT).extracting(Entry::detail)
                .allSatisfy(location -> assertThat(location).isNotBlank().doesNotStartWith("shared "));
    }

    @Test
    void shouldKeepOnlyTheRecordsOfTheJobAndCheckpointAsked() {
        Timeline billing = timeline(AuditJournals.BILLING, 1);
        CheckpointTimeline never = new CheckpointTimeline(ORDERS, 42);
        journal.forEach(never::accept);

        assertThat(billing.entries()).filteredOn(e -> e.kind() == Kind.ACK).extracting(Entry::task)
                .containsExactly("ledger");
        assertThat(never.found()).isFalse();
        assertThat(never.timeline().outcome()).isEqualTo(Outcome.PENDING);
    }

    private Timeline timeline(String jobId, long checkpointId) {
        CheckpointTimeline builder = new CheckpointTimeline(jobId, checkpointId);
        journal.forEach(builder::accept);
        return builder.timeline();
    }
}
