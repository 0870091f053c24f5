#!/usr/bin/env python3
"""The coefficient of variation of brightness over 16x16-pixel blocks of a
y4m file's first frame: the blocks' mean luma (Y, the picture's brightness
as the encoder sees it), their standard deviation over their mean.  A
flock gathered into flocks and voids varies from block to block; the same
boids scattered do not.  Standard library only.

usage: block_cv.py FILE.y4m [BLOCK]"""
import sys


def first_luma(path):
    data = open(path, 'rb').read()
    header = data[:data.index(b'\n')].split()
    w = int(next(t for t in header if t.startswith(b'W'))[1:])
    h = int(next(t for t in header if t.startswith(b'H'))[1:])
    at = data.index(b'FRAME', len(header)) + data[data.index(b'FRAME'):].index(b'\n') + 1
    return w, h, data[at:at + w * h]


def block_cv(path, block=16):
    w, h, y = first_luma(path)
    means = []
    for by in range(h // block):
        for bx in range(w // block):
            s = sum(sum(y[j * w + bx * block:j * w + bx * block + block]) for j in range(by * block, by * block + block))
            means.append(s / (block * block))
    m = sum(means) / len(means)
    return (sum((v - m) ** 2 for v in means) / len(means)) ** .5 / m


if __name__ == '__main__':
    print('%.4f' % block_cv(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 16))
