/* A stand-in for Windows' bcryptprimitives.dll, for building under Wine 8.0 only (Wine added
 * its own in 8.13). Python 3.11's and Qt's runtime call ProcessPrng for random bytes; this one
 * gets them from RtlGenRandom (advapi32's SystemFunction036), as Windows itself did before.
 * Never shipped: scripts/build_windows.sh copies it into a test Wine prefix and checks that the
 * frozen app does not contain it. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    while (size > 0) {
        ULONG chunk = size > 0x40000000 ? 0x40000000 : (ULONG)size;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance; (void)reason; (void)reserved;
    return TRUE;
}
