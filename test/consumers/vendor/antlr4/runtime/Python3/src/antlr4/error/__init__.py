__author__ = 'ericvergnaud'
