"""Unpacking a submission's archive (zip, tar, tar.gz) into a folder as hostile input: sizes,
counts and names are checked before anything is read, members that are not regular files
or folders are refused, and nothing is written outside the target.  Memory never grows with
what an archive *claims*; the limits bind the sum over archives inside one another."""

from __future__ import annotations

import os
import re
import stat
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

from .files import CHUNK, OPEN_FLAGS, create_file
from .limits import (MAX_ARCHIVE_BYTES, MAX_DEPTH, MAX_ENTRIES, MAX_EXTENDED_HEADER,
                     MAX_EXTENDED_IN_A_ROW, MAX_MEMBER_NAME_BYTES, MAX_NAME_BYTES, MAX_RATIO,
                     MAX_STREAM_BYTES, MAX_ZIP_DIRECTORY, RATIO_FLOOR, ArchiveError,
                     UnpackStats, check_unpacked)
from .names import display_name, display_path, escape_controls, raw_name, safe_component


def unpack(archive: Path, target: Path, stats: UnpackStats | None = None) -> Path:
    """Unpack ``archive`` into the new folder ``target``; return the folder to grade (the
    single top-level folder, if that is all the archive holds).  Raises ArchiveError."""
    stats = stats if stats is not None else UnpackStats()
    info = os.lstat(archive)
    if not stat.S_ISREG(info.st_mode):
        raise ArchiveError(f"{display_name(Path(archive).name)} is not a regular file "
                           f"(a link or special file), not read")
    if info.st_size > MAX_ARCHIVE_BYTES:
        raise ArchiveError(f"the archive is larger than {MAX_ARCHIVE_BYTES >> 20} MiB "
                           f"({info.st_size / (1 << 20):.1f} MiB); hand in only your code")
    if info.st_size == 0:
        raise ArchiveError("the archive file is empty (0 bytes); hand it in again")
    stats.archives += 1
    Path(target).mkdir(parents=True, exist_ok=False)
    try:
        with open(os.open(archive, os.O_RDONLY | OPEN_FLAGS), "rb") as handle:
            if Path(archive).name.lower().endswith(".zip"):
                _unpack_zip(handle, info.st_size, Path(target), stats)
            else:
                _unpack_tar(handle, info.st_size, Path(target), stats)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, tarfile.TarError, zlib.error, EOFError,
            OSError, ValueError, NotImplementedError, RuntimeError) as error:
        raise ArchiveError(f"the archive cannot be read: {type(error).__name__}: "
                           f"{escape_controls(str(error))}") from error
    entries = [p for p in Path(target).iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return Path(target)


def _member_parts(name: str, directory: bool = False) -> tuple:
    """A member's path as safe file-system names; refuses absolute paths and ``..``."""
    shown = display_name(name)
    if len(raw_name(name)) > MAX_MEMBER_NAME_BYTES:
        raise ArchiveError(f"the archive holds a name longer than {MAX_MEMBER_NAME_BYTES} "
                           f"bytes: {shown[:80]}…")
    path = name.replace("\\", "/")      # archives made on Windows
    if path.startswith("/") or re.match(r"[A-Za-z]:", path):
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    if not parts and not directory:
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    if len(parts) > MAX_DEPTH:
        raise ArchiveError(f"{shown} lies more than {MAX_DEPTH} folders deep; flatten the "
                           f"submission")
    safe = tuple(safe_component(part) for part in parts)
    for part in safe:
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise ArchiveError(f"the archive holds a name longer than {MAX_NAME_BYTES} bytes: "
                               f"{shown[:80]}…")
    return safe


def make_folder(target: Path, parts: tuple) -> None:
    folder = target.joinpath(*parts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ArchiveError(f"the archive holds {display_path(parts)} both as a file and as "
                           f"a folder") from None


def _write_member(read, target: Path, parts: tuple, size: int, exact_end: bool) -> None:
    """Write ``size`` bytes from ``read`` to the member's place; ``exact_end``: the source
    must end there (a zip member may not hold more than its header declares)."""
    make_folder(target, parts[:-1])
    try:
        out = create_file(os.fspath(target.joinpath(*parts)))
    except FileExistsError:
        raise ArchiveError(f"the archive holds {display_path(parts)} twice (or two names that "
                           f"are the same once made safe)") from None
    except (IsADirectoryError, NotADirectoryError):
        raise ArchiveError(f"the archive holds {display_path(parts)} both as a file and as "
                           f"a folder") from None
    with out:
        remaining = size
        while remaining > 0:
            chunk = read(min(CHUNK, remaining))
            if not chunk:
                raise ArchiveError(f"the archive is truncated: {display_path(parts)} ends "
                                   f"early")
            out.write(chunk)
            remaining -= len(chunk)
        if exact_end and read(1):
            raise ArchiveError(f"{display_path(parts)} in the archive is larger than its "
                               f"header says")


_ZIP_END = b"PK\x05\x06"


def _scan_zip_directory(handle, size: int, stats: UnpackStats) -> None:
    """Count the central directory's entries and check their name lengths before zipfile
    builds an object for each (it would for hundreds of thousands of them)."""
    tail_size = min(size, 22 + 0xFFFF)
    handle.seek(size - tail_size)
    tail = handle.read(tail_size)
    # The same end record zipfile takes: right at the end if there is no comment, else the
    # last signature in the final 64 KiB.
    at = len(tail) - 22 if tail[-22:-18] == _ZIP_END and tail[-2:] == b"\0\0" \
        else tail.rfind(_ZIP_END)
    if at < 0 or len(tail) - at < 22:
        raise ArchiveError("the archive is not a zip archive (its end record is missing)")
    _, _, _, _, count, directory_size, _, _ = struct.unpack("<4s4H2LH", tail[at:at + 22])
    end = size - tail_size + at
    if count == 0xFFFF or directory_size == 0xFFFFFFFF:
        # Zip64: the real numbers are in the record before the locator before the end record.
        if end < 76:
            raise ArchiveError("the archive is damaged (its zip64 end record is missing)")
        handle.seek(end - 76)
        record, locator = handle.read(56), handle.read(20)
        if record[:4] != b"PK\x06\x06" or locator[:4] != b"PK\x06\x07":
            raise ArchiveError("the archive is damaged (its zip64 end record is missing)")
        count, directory_size = struct.unpack("<4sQ2H2L4Q", record)[7:9]
        end -= 76
    if stats.members + count > MAX_ENTRIES:
        raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members{stats.in_all()} "
                           f"({stats.members + count})")
    if directory_size > MAX_ZIP_DIRECTORY or directory_size > end:
        raise ArchiveError(f"the archive's directory is damaged or larger than "
                           f"{MAX_ZIP_DIRECTORY >> 20} MiB")
    handle.seek(end - directory_size)
    directory = handle.read(directory_size)
    position = scanned = 0
    while position + 46 <= len(directory) and directory[position:position + 4] == b"PK\x01\x02":
        name_length, extra_length, comment_length = struct.unpack(
            "<3H", directory[position + 28:position + 34])
        stats.headers += 1
        scanned += 1
        if stats.members + scanned > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members"
                               f"{stats.in_all()}")
        if name_length > MAX_MEMBER_NAME_BYTES:
            raise ArchiveError(f"the archive holds a name longer than {MAX_MEMBER_NAME_BYTES} "
                               f"bytes")
        position += 46 + name_length + extra_length + comment_length


def _unpack_zip(handle, size: int, target: Path, stats: UnpackStats) -> None:
    _scan_zip_directory(handle, size, stats)
    handle.seek(0)
    with zipfile.ZipFile(handle) as bundle:
        members = bundle.infolist()
        if stats.members + len(members) > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members"
                               f"{stats.in_all()}")
        for info in members:
            directory = info.is_dir() or info.filename.endswith("\\")   # old Windows tools
            parts = _member_parts(info.filename, directory)
            mode = (info.external_attr >> 16) & 0o170000
            if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise ArchiveError(f"the archive holds a link or special file: "
                                   f"{display_name(info.filename)}")
            if info.flag_bits & 0x1:
                raise ArchiveError(f"{display_name(info.filename)} in the archive is "
                                   f"encrypted; hand in an archive without a password")
            stats.members += 1
            if directory:
                make_folder(target, parts)
                continue
            stats.files += 1
            stats.unpacked += info.file_size
            check_unpacked(stats)
            if info.file_size > RATIO_FLOOR and \
                    info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise ArchiveError(f"{display_name(info.filename)} in the archive is "
                                   f"compressed more than {MAX_RATIO}:1 (an archive bomb?)")
            with bundle.open(info) as source:
                _write_member(source.read, target, parts, info.file_size, exact_end=True)


class _Stream:
    """The tar bytes of an archive file, gunzipped on the fly when it is gzip: never more
    than asked for, and never more in all than the limits allow."""

    def __init__(self, handle, size: int, stats: UnpackStats):
        self.handle, self.size, self.stats = handle, size, stats
        self.produced = 0       # this archive's share of stats.decompressed (its ratio)
        head = handle.read(6)
        handle.seek(0)
        if head.startswith(b"BZh") or head.startswith(b"\xfd7zXZ"):
            raise ArchiveError("the archive is compressed with bzip2 or xz; hand in a .zip or "
                               ".tar.gz")
        self.gzip = head.startswith(b"\x1f\x8b")
        self.inflate = zlib.decompressobj(31) if self.gzip else None

    def read(self, count: int) -> bytes:
        pieces = []
        while count > 0:
            piece = self._next(count)
            if not piece:
                break
            pieces.append(piece)
            count -= len(piece)
            self.stats.decompressed += len(piece)
            self.produced += len(piece)
            self._check()
        return b"".join(pieces)

    def _check(self) -> None:
        if self.stats.decompressed > MAX_STREAM_BYTES:
            raise ArchiveError(f"the archive decompresses to more than "
                               f"{MAX_STREAM_BYTES >> 20} MiB{self.stats.in_all()}; hand in "
                               f"only your code")
        produced = self.produced
        if self.gzip and produced > RATIO_FLOOR and produced > MAX_RATIO * self.size:
            raise ArchiveError(f"the archive is compressed more than {MAX_RATIO}:1 "
                               f"(an archive bomb?); hand in only your code")

    def _next(self, limit: int) -> bytes:
        if not self.gzip:
            return self.handle.read(limit)
        while True:
            # eof first: a member that ends while the output is limited keeps its last input
            # as unconsumed_tail too (CPython 3.11), and feeding that again only appends it to
            # unused_data, for ever
            if self.inflate.eof:
                data = self.inflate.unused_data or self.handle.read(CHUNK)
                if len(data) < 2:       # a read may end between the next member's two magic bytes
                    data += self.handle.read(CHUNK)
                if not data.startswith(b"\x1f\x8b"):
                    return b""          # the end (or padding after it)
                self.inflate = zlib.decompressobj(31)     # another gzip member follows
            elif self.inflate.unconsumed_tail:
                data = self.inflate.unconsumed_tail
            else:
                data = self.handle.read(CHUNK)
                if not data:
                    raise ArchiveError("the archive is truncated (its gzip stream ends early)")
            out = self.inflate.decompress(data, limit)
            if out:
                return out


_REGULAR = (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE)
_EXTENDED = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE,
             tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE)
_SPECIAL = (tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.CHRTYPE, tarfile.BLKTYPE,
            tarfile.FIFOTYPE)


def _padded(size: int) -> int:
    return -(-size // 512) * 512


def _read_exactly(stream: _Stream, count: int) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise ArchiveError("the archive is truncated")
    return data


def _parse_pax(data: bytes) -> dict:
    """pax records ``LEN key=value\\n``; malformed records refuse the archive."""
    records, position = {}, 0
    while position < len(data) and data[position:].strip(b"\0"):
        space = data.find(b" ", position, position + 20)
        length = data[position:space]
        if space < 0 or not length.isdigit() or int(length) <= space - position + 1:
            raise ArchiveError("the archive holds a damaged pax header")
        end = position + int(length)
        record = data[space + 1:end]
        if end > len(data) or not record.endswith(b"\n") or b"=" not in record:
            raise ArchiveError("the archive holds a damaged pax header")
        key, value = record[:-1].split(b"=", 1)
        records[key.decode("utf-8", "surrogateescape")] = \
            value.decode("utf-8", "surrogateescape")
        position = end
    if any(key.startswith("GNU.sparse") for key in records):
        raise ArchiveError("the archive holds a sparse file; hand in a plain archive")
    if records.get("size") and not records["size"].isdigit():
        raise ArchiveError("the archive holds a damaged pax header")
    return records


def _unpack_tar(handle, size: int, target: Path, stats: UnpackStats) -> None:
    """Read the tar stream header by header (512-byte blocks), never trusting a size before
    it is checked: tarfile would read a GNU long-name or pax header of any claimed size into
    memory, and build an object per member for any number of members."""
    stream = _Stream(handle, size, stats)
    global_pax, pax = {}, {}
    long_name = None
    in_a_row = 0
    while True:
        block = stream.read(512)
        if not block or block == bytes(512):
            break                       # the end (an archive without end blocks is fine)
        if len(block) < 512:
            raise ArchiveError("the archive is truncated")
        stats.headers += 1
        try:
            info = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.HeaderError:
            raise ArchiveError("the archive is not a tar archive or is damaged (a header "
                               "fails its checksum)") from None
        if info.size < 0:
            raise ArchiveError("the archive is damaged (a negative size)")
        stats.members += 1
        if stats.members > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members (files, "
                               f"folders, links or headers){stats.in_all()}")
        if info.type in _EXTENDED:
            in_a_row += 1
            if in_a_row > MAX_EXTENDED_IN_A_ROW:
                raise ArchiveError("the archive holds too many extended headers in a row")
            if info.size > MAX_EXTENDED_HEADER:
                raise ArchiveError(f"the archive holds an extended header of {info.size} bytes "
                                   f"(at most {MAX_EXTENDED_HEADER >> 10} KiB): refused "
                                   f"without reading it")
            data = _read_exactly(stream, _padded(info.size))[:info.size]
            if info.type == tarfile.GNUTYPE_LONGNAME:
                long_name = data.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            elif info.type == tarfile.XGLTYPE:
                global_pax.update(_parse_pax(data))
            elif info.type in (tarfile.XHDTYPE, tarfile.SOLARIS_XHDTYPE):
                pax.update(_parse_pax(data))
            continue                    # a long link name: links are refused anyway
        in_a_row = 0
        headers = {**global_pax, **pax}
        name = headers.get("path") or long_name or info.name
        member_size = int(headers["size"]) if headers.get("size") else info.size
        pax, long_name = {}, None
        if info.type in _SPECIAL:
            raise ArchiveError(f"the archive holds a link or special file: {display_name(name)}")
        if info.type == tarfile.GNUTYPE_SPARSE:
            raise ArchiveError(f"the archive holds a sparse file: {display_name(name)}")
        if info.type == tarfile.DIRTYPE:
            make_folder(target, _member_parts(name, directory=True))
            _read_exactly(stream, _padded(member_size))     # a dumpdir's listing, if any
            continue
        if info.type not in _REGULAR:
            raise ArchiveError(f"the archive holds {display_name(name)} of an unknown kind "
                               f"({info.type!r})")
        parts = _member_parts(name)
        stats.files += 1
        stats.unpacked += member_size
        check_unpacked(stats)
        _write_member(stream.read, target, parts, member_size, exact_end=False)
        _read_exactly(stream, _padded(member_size) - member_size)
