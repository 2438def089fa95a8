package org.jhpvm.properties;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random traffic for the fabric properties: NICs, ring capacities, frame geometry, messages (source,
 * destination, length) and a seed for the order in which a single-threaded driver interleaves sends and polls.
 */
record Scenario(int nics, int sendRing, int receiveRing, int frameBytes, int inlineBytes, List<Message> messages,
                long scheduleSeed) {

    /** One frame to send. */
    record Message(int src, int dst, int length) {
    }

    static Arbitrary<Scenario> arbitrary(final int minNics, final int maxNics, final int minMessages,
                                         final int maxMessages) {
        return Arbitraries.integers().between(minNics, maxNics).flatMap(nics ->
            Arbitraries.integers().between(8, 512).flatMap(frameBytes -> Combinators.combine(
                Arbitraries.integers().between(1, 8),
                Arbitraries.integers().between(1, 8),
                Arbitraries.integers().between(0, frameBytes),
                message(nics, frameBytes).list().ofMinSize(minMessages).ofMaxSize(maxMessages),
                Arbitraries.longs())
                .as((send, receive, inline, messages, seed) ->
                    new Scenario(nics, send, receive, frameBytes, inline, messages, seed))));
    }

    private static Arbitrary<Message> message(final int nics, final int frameBytes) {
        return Combinators.combine(
            Arbitraries.integers().between(0, nics - 1),
            Arbitraries.integers().between(0, nics - 1),
            Arbitraries.integers().between(0, frameBytes))
            .as(Message::new);
    }
}
