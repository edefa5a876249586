package dev.cairn.core.decide;

import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * One record a decision sends to {@code <prefix>completed}: a job's {@code RetainedCheckpoints} under the job id, or
 * a {@code RestorePart} of its restore point under the part's key, or a tombstone ({@code null} value) for a part the
 * new restore point does not overwrite.
 *
 * @param key the record key ({@code dev.cairn.events.topics.CairnTopics#restorePartKey} for a part)
 * @param value the value; {@code null} for a tombstone
 */
public record CompletedTopicRecord(String key, SpecificRecord value) {

    public CompletedTopicRecord {
        Objects.requireNonNull(key, "key");
    }
}
