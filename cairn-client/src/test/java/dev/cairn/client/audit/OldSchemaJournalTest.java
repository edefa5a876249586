package dev.cairn.client.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.audit.CheckpointTimeline;
import dev.cairn.core.audit.JournalChecker;
import dev.cairn.core.audit.JournalEntry;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.views.StateViews;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** A journal written with every frozen schema version in turn reads, checks, replays and tells its timelines. */
class OldSchemaJournalTest {

    private final List<JournalEntry> journal = decode(OldSchemaJournal.values());

    @Test
    void shouldFindNoViolationInAJournalWrittenWithEveryFrozenVersion() {
        JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
        journal.forEach(checker::accept);

        assertThat(checker.finish()).isEmpty();
        assertThat(checker.state().job(OldSchemaJournal.JOB).orElseThrow().getCounts().getCompleted()).isEqualTo(3);
        assertThat(checker.state().job(OldSchemaJournal.JOB).orElseThrow().getLatestCompletedId()).isEqualTo(4);
    }

    @Test
    void shouldTellTheTimelineOfAVersionOneCheckpointFromItsPlan() {
        CheckpointTimeline builder = new CheckpointTimeline(OldSchemaJournal.JOB, 1);
        journal.forEach(builder::accept);

        assertThat(builder.timeline().acksExpected()).isEqualTo(3);
        assertThat(builder.timeline().acksAccepted()).isEqualTo(3);
        assertThat(builder.timeline().outcome()).isEqualTo(CheckpointTimeline.Outcome.COMPLETED);
        assertThat(builder.timeline().entries().get(builder.timeline().entries().size() - 1).detail())
                .startsWith("3 subtask states");
    }

    @Test
    void shouldRenderTheReplayedStateOfTheUpgradedJournal() {
        Replay replay = new Replay(CoordinatorSettings.DEFAULTS, OldSchemaJournal.JOB);
        journal.forEach(replay::accept);

        assertThat(StateViews.checkpoints(replay.state(), OldSchemaJournal.JOB).orElseThrow().history())
                .extracting(c -> c.identity().id() + " " + c.identity().status())
                .containsExactly("4 COMPLETED", "3 COMPLETED", "2 FAILED",
                        "1 COMPLETED");
        assertThat(StateViews.latestCompleted(replay.state(), OldSchemaJournal.JOB).orElseThrow().subtaskStates())
                .hasSize(3);
    }

    @Test
    void shouldBringOldRecordsToTheCurrentShapeOnTheDecodersFastPathAsTheSerdeDoes() {
        JournalDecoder decoder = new JournalDecoder();
        List<SpecificRecord> fast = OldSchemaJournal.values().stream().map(v -> decoder.decode("journal", v)).toList();

        assertThat(fast).isEqualTo(journal.stream().map(JournalEntry::event).toList());
        assertThat(fast).filteredOn(CheckpointTriggered.class::isInstance).extracting(e -> (CheckpointTriggered) e)
                .extracting(CheckpointTriggered::getAcksExpected).as("version 1 and 2: from the plan").containsOnly(3);
        assertThat(fast).filteredOn(CheckpointAborted.class::isInstance).extracting(e -> (CheckpointAborted) e)
                .extracting(CheckpointAborted::getOptions).containsOnly(SnapshotOptions.newBuilder().build());
    }

    private static List<JournalEntry> decode(List<byte[]> values) {
        AvroEventSerde<JournalEnvelope> serde = CairnSerdes.journal();
        List<JournalEntry> entries = new ArrayList<>();
        for (byte[] value : values) {
            SpecificRecord event = (SpecificRecord) serde.deserialize("journal", value).getEvent();
            entries.add(JournalEntry.of(0, entries.size(), 0, OldSchemaJournal.JOB, event));
        }
        return entries;
    }
}
