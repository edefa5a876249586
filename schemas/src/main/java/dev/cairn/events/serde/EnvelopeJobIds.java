package dev.cairn.events.serde;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.TaskStarted;

/** The job an envelope's event belongs to: what signing and verifying a record look up the key by. */
public final class EnvelopeJobIds {

    private EnvelopeJobIds() {
    }

    /** The job id of the TaskStarted, ack or decline inside. */
    public static String of(AckEnvelope envelope) {
        Object event = envelope.getEvent();
        if (event instanceof TaskStarted started) {
            return started.getJobId();
        }
        if (event instanceof CheckpointAcknowledged ack) {
            return ack.getJobId();
        }
        if (event instanceof CheckpointDeclined decline) {
            return decline.getJobId();
        }
        throw new IllegalArgumentException("not an event of cairn.acks: " + event);
    }
}
