package org.jhpvm.fm.internal;

import org.jhpvm.fm.Fm1Handler;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmInputStream;

/**
 * FM 1.x on FM 2.x: the 1.x handler gets the whole message contiguous. A message in one frame is handed over in
 * place; a longer one is received into a staging array first (the copy FM 2.x's streams remove).
 */
final class Fm1Adapter implements FmHandler {
    private final Fm1Handler handler;
    private final int maxBytes;

    Fm1Adapter(final Fm1Handler handler, final int maxBytes) {
        this.handler = handler;
        this.maxBytes = maxBytes;
    }

    @Override
    public void onMessage(final FmInputStream in, final int sender) throws Exception {
        final int inFrame = in instanceof InboundStream f ? f.wholeRestInFrame() : -1;
        if (inFrame >= 0) {
            final InboundStream s = (InboundStream) in;
            final int length = Math.min(inFrame, s.declaredLength());
            final byte[] array = s.frameArray();
            final int offset = s.framePosition();
            s.skipInFrame(length);
            handler.onMessage(sender, array, offset, length);
            return;
        }
        final int declared = in.declaredLength();
        if (declared > maxBytes) {
            throw new IllegalStateException("FM 1.x message from PE " + sender + " of " + declared
                + " bytes exceeds maxFm1MessageBytes=" + maxBytes);
        }
        final byte[] staging = new byte[declared];
        final int length = in.receiveUpTo(staging, 0, declared);
        handler.onMessage(sender, staging, 0, length);
    }
}
